package app

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parking/internal/store"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLoadConfigDefaults(t *testing.T) {
	c, err := LoadConfig(nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.DatabaseURL != "sqlite:parking.db" || c.BaseURL != "http://localhost:8080" ||
		c.Location.String() != "Europe/Madrid" || c.WebhookTimeout != 10*time.Second || c.TokenTTL != 12*time.Hour ||
		c.LogFormat != "text" || c.Capacity != 0 || c.WebhookURL != "" || c.SQLiteSync != store.SyncFull ||
		c.Input.Region() != "ES" || c.DBTimeout != 5*time.Second || c.DBWait != 2*time.Minute {
		t.Errorf("defaults: %+v", c)
	}
}

func TestLoadConfigEnvThenFlags(t *testing.T) {
	c, err := LoadConfig([]string{"--addr", "127.0.0.1:9000", "--capacity", "1000"}, env(map[string]string{
		"PARKING_ADDR": ":7000", "PARKING_TIMEZONE": "Atlantic/Canary", "PARKING_WEBHOOK_URL": "https://n8n.example/webhook/x",
		"PARKING_LOG_FORMAT": "json", "PARKING_BASE_URL": "https://parking.example/", "PARKING_PHONE_REGION": "pt",
	}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:9000" || c.Capacity != 1000 || c.Location.String() != "Atlantic/Canary" ||
		c.WebhookURL != "https://n8n.example/webhook/x" || c.LogFormat != "json" || c.BaseURL != "https://parking.example" ||
		c.Input.Region() != "PT" {
		t.Errorf("env then flags: %+v", c)
	}
}

func TestLoadConfigRefusals(t *testing.T) {
	cases := map[string]struct {
		env  map[string]string
		want string
	}{
		"database":   {map[string]string{"PARKING_DATABASE_URL": "mysql://x"}, `PARKING_DATABASE_URL: "mysql://x" must be sqlite:PATH or postgres://…`},
		"zone":       {map[string]string{"PARKING_TIMEZONE": "Mars/Olympus"}, `PARKING_TIMEZONE: "Mars/Olympus" is not an IANA time zone`},
		"timeout":    {map[string]string{"PARKING_WEBHOOK_TIMEOUT": "soon"}, `PARKING_WEBHOOK_TIMEOUT (--webhook-timeout): must be a duration`},
		"webhook":    {map[string]string{"PARKING_WEBHOOK_URL": "ftp://x"}, `PARKING_WEBHOOK_URL: "ftp://x" must be an absolute http(s) address`},
		"admin pair": {map[string]string{"PARKING_ADMIN_EMAIL": "a@b.es"}, `PARKING_ADMIN_EMAIL: and PARKING_ADMIN_PASSWORD must be set together`},
		"capacity":   {map[string]string{"PARKING_CAPACITY": "-3"}, `PARKING_CAPACITY: must be between 0 and 1000000`},
		"log":        {map[string]string{"PARKING_LOG_FORMAT": "xml"}, `PARKING_LOG_FORMAT: "xml" must be text or json`},
		"base url":   {map[string]string{"PARKING_BASE_URL": "parking.example"}, `PARKING_BASE_URL: "parking.example" must be an absolute http(s) address`},
		"db timeout": {map[string]string{"PARKING_DB_TIMEOUT": "0s"}, `PARKING_DB_TIMEOUT: must be between 1ms and 10m`},
		"db wait":    {map[string]string{"PARKING_DB_WAIT": "-1s"}, `PARKING_DB_WAIT: must be between 0 and 24h`},
		"sync":       {map[string]string{"PARKING_SQLITE_SYNC": "OFF"}, `PARKING_SQLITE_SYNC (--sqlite-sync): must be FULL or NORMAL`},
		"region":     {map[string]string{"PARKING_PHONE_REGION": "Spain"}, `PARKING_PHONE_REGION: "SPAIN" is not a region with phone numbering rules`},
	}
	for name, c := range cases {
		_, err := LoadConfig(nil, env(c.env), io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", name, err, c.want)
		}
	}
}

func TestRunCommands(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), []string{"help"}, env(nil), &out, &errOut); code != 0 || !strings.Contains(out.String(), "PARKING_DATABASE_URL") {
		t.Errorf("help: code %d, output %q", code, out.String())
	}
	out.Reset()
	if code := Run(context.Background(), []string{"version"}, env(nil), &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "parking ") {
		t.Errorf("version: code %d, output %q", code, out.String())
	}
	if code := Run(context.Background(), []string{"fly"}, env(nil), &out, &errOut); code != 2 {
		t.Errorf("unknown command: code %d, want 2", code)
	}

	db := "sqlite:" + filepath.Join(t.TempDir(), "p.db")
	e := env(map[string]string{"PARKING_DATABASE_URL": db})
	errOut.Reset()
	if code := Run(context.Background(), []string{"migrate"}, e, &out, &errOut); code != 0 {
		t.Fatalf("migrate: code %d: %s", code, errOut.String())
	}
	if !strings.Contains(errOut.String(), "parking admin create --email E --password P") {
		t.Errorf("no start-up hint on how to create the first administrator:\n%s", errOut.String())
	}
	out.Reset()
	if code := Run(context.Background(), []string{"admin", "create", "--email", "jefe@parking.es", "--password", "s3cret-pass"}, e, &out, &errOut); code != 0 {
		t.Fatalf("admin create: code %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "administrator jefe@parking.es created") {
		t.Errorf("admin create output %q", out.String())
	}
	errOut.Reset()
	if code := Run(context.Background(), []string{"admin", "create", "--email", "JEFE@parking.es", "--password", "s3cret-pass"}, e, &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), "Ya existe una cuenta con el correo") {
		t.Errorf("duplicate admin: code %d, %q", code, errOut.String())
	}
	errOut.Reset()
	if code := Run(context.Background(), []string{"admin", "create", "--email", "x@parking.es", "--password", "short"}, e, &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), "al menos 8 caracteres") {
		t.Errorf("short password: code %d, %q", code, errOut.String())
	}
}

// serve starts, answers, and shuts down cleanly when its context ends (a signal).
func TestServeGracefulShutdown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	db := "sqlite:" + filepath.Join(t.TempDir(), "p.db")
	var errOut bytes.Buffer
	done := make(chan int, 1)
	serving := make(chan string, 1)
	testHookServing = func(url string) { serving <- url }
	t.Cleanup(func() { testHookServing = nil })
	go func() {
		done <- Run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--database-url", db}, env(map[string]string{
			"PARKING_ADMIN_EMAIL": "boss@parking.es", "PARKING_ADMIN_PASSWORD": "password-1",
		}), io.Discard, &errOut)
	}()
	var url string
	select {
	case url = <-serving:
	case code := <-done:
		t.Fatalf("serve exited %d before listening: %s", code, errOut.String())
	}
	resp, err := http.Get(url + "/readyz")
	if err != nil {
		t.Fatalf("server does not answer: %v\n%s", err, errOut.String())
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("readyz = %d", resp.StatusCode)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exited %d: %s", code, errOut.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop after its context ended")
	}
	log := errOut.String()
	if !strings.Contains(log, "administrator account created") || !strings.Contains(log, "shutting down") {
		t.Errorf("log lacks admin bootstrap or shutdown lines:\n%s", log)
	}
}

// PARKING_SQLITE_SYNC (or --sqlite-sync) reaches the database: PRAGMA synchronous
// is 2 (FULL) by default and 1 with NORMAL.
func TestSQLiteSyncReachesTheDatabase(t *testing.T) {
	for _, c := range []struct {
		env  string
		args []string
		want int
	}{{"", nil, 2}, {"NORMAL", nil, 1}, {"normal", []string{"--sqlite-sync", "FULL"}, 2}} {
		cfg, err := LoadConfig(c.args, env(map[string]string{
			"PARKING_DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "p.db"), "PARKING_SQLITE_SYNC": c.env,
		}), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Open(context.Background(), cfg, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		var got int
		err = a.Store.WriteDB().QueryRowContext(context.Background(), `PRAGMA synchronous`).Scan(&got)
		a.Store.Close()
		if err != nil || got != c.want {
			t.Errorf("PARKING_SQLITE_SYNC %q, flags %v: PRAGMA synchronous %d (%v), want %d", c.env, c.args, got, err, c.want)
		}
	}
}

// PARKING_PUBLIC_RATE (docs/public-booking.md#limits-on-anonymous-traffic): default 30, 0 turns it off, a whole number.
func TestLoadConfigPublicRate(t *testing.T) {
	for v, want := range map[string]int{"": 30, "0": 0, "120": 120} {
		c, err := LoadConfig(nil, env(map[string]string{"PARKING_PUBLIC_RATE": v}), io.Discard)
		if err != nil || c.PublicRate != want {
			t.Errorf("PARKING_PUBLIC_RATE=%q: %d, %v; want %d", v, c.PublicRate, err, want)
		}
	}
	c, err := LoadConfig([]string{"--public-rate", "5"}, env(nil), io.Discard)
	if err != nil || c.PublicRate != 5 {
		t.Errorf("--public-rate 5: %d, %v", c.PublicRate, err)
	}
	for _, v := range []string{"-1", "many"} {
		if _, err := LoadConfig(nil, env(map[string]string{"PARKING_PUBLIC_RATE": v}), io.Discard); err == nil ||
			!strings.Contains(err.Error(), "PARKING_PUBLIC_RATE (--public-rate): must be a whole number") {
			t.Errorf("PARKING_PUBLIC_RATE=%q: err = %v", v, err)
		}
	}
}
