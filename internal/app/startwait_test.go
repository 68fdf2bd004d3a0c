package app_test

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

type started struct {
	a   *app.App
	err error
}

// startBehind starts the service on a PostgreSQL reached through a proxy the test
// has cut, and returns as soon as it listens.
func startBehind(t *testing.T, wait time.Duration) (url string, px *storetest.Proxy, done chan started) {
	t.Helper()
	dbURL, px := storetest.ProxiedPostgres(t)
	px.Cut()
	cfg := apptest.Config(t, store.Postgres)
	cfg.DatabaseURL = dbURL
	cfg.DBWait = wait
	listening := make(chan string, 1)
	cfg.OnListen = func(u string) { listening <- u }
	done = make(chan started, 1)
	go func() {
		a, err := app.Start(context.Background(), cfg, slog.New(slog.DiscardHandler))
		done <- started{a, err}
	}()
	select {
	case url = <-listening:
	case r := <-done:
		t.Fatalf("Start returned before listening: %v", r.err)
	}
	return url, px, done
}

// Started while PostgreSQL cannot be reached, the service does not exit: it
// listens at once, /healthz 200 and /readyz 503 (every other route 503 with
// Retry-After), and when the database answers it migrates and serves.
func TestStartWaitsForDatabase(t *testing.T) {
	url, px, done := startBehind(t, time.Minute)
	c := apptest.Client(t)
	webtest.WantStatus(t, webtest.Do(t, c, "GET", url+"/healthz", nil), 200)
	webtest.WantStatus(t, webtest.Do(t, c, "GET", url+"/readyz", nil), 503)
	booking := map[string]any{
		"full_name": "Ana Pérez", "phone": "600111222", "license_plate": "1234ABC", "vehicle_type": "COCHE",
		"entry_date": clocktest.D("2026-12-01") + "T10:00", "exit_date": clocktest.D("2026-12-03") + "T10:00", "id_main_service": 1,
	}
	res := webtest.PostJSON(t, c, url+"/api/reservations/public-new", booking)
	if res.StatusCode != 503 || res.Header.Get("Retry-After") == "" || !strings.Contains(res.Body, `"success":false`) {
		t.Errorf("booking while starting: %d Retry-After=%q %s", res.StatusCode, res.Header.Get("Retry-After"), res.Body)
	}
	page := webtest.Do(t, c, "GET", url+"/admin/parking", nil, "Accept: text/html")
	if page.StatusCode != 503 || !strings.Contains(page.Body, "Servicio no disponible") {
		t.Errorf("page while starting: %d %s", page.StatusCode, page.Body)
	}
	select {
	case r := <-done:
		t.Fatalf("Start returned while the database is down: %v", r.err)
	default:
	}

	px.Restore()
	var r started
	select {
	case r = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Start did not finish once the database answered")
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	t.Cleanup(func() { r.a.Close() })
	webtest.WantStatus(t, webtest.Do(t, c, "GET", url+"/readyz", nil), 200)
	webtest.WantStatus(t, webtest.PostJSON(t, c, url+"/api/reservations/public-new", booking), http.StatusCreated)
}

// Past PARKING_DB_WAIT, Start gives up with an error naming the setting (serve
// then exits 1), and stops listening.
func TestStartGivesUpAfterDBWait(t *testing.T) {
	url, _, done := startBehind(t, 300*time.Millisecond)
	var r started
	select {
	case r = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Start still waiting long past PARKING_DB_WAIT")
	}
	if r.err == nil || !strings.Contains(r.err.Error(), "PARKING_DB_WAIT") {
		r.a.Close()
		t.Fatalf("Start: %v, want an error naming PARKING_DB_WAIT", r.err)
	}
	if _, err := http.Get(url + "/healthz"); err == nil {
		t.Error("still listening after giving up")
	}
}
