package web_test

import (
	"context"
	"database/sql"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/fault"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

func publicBooking(plate string) map[string]any {
	return map[string]any{
		"full_name": "Ana Pérez", "phone": "600111222", "license_plate": plate, "vehicle_type": "COCHE",
		"entry_date": clocktest.D("2026-12-01") + "T10:00", "exit_date": clocktest.D("2026-12-03") + "T10:00",
		"id_main_service": 1,
	}
}

// want503 checks a 503 of docs/reliability.md in the {"success": false, "message"} shape.
func want503(t *testing.T, what string, res webtest.Response) {
	t.Helper()
	if res.StatusCode != 503 || res.Header.Get("Retry-After") == "" {
		t.Fatalf("%s: %d Retry-After=%q %s, want 503 with Retry-After", what, res.StatusCode, res.Header.Get("Retry-After"), res.Body)
	}
	if !strings.Contains(res.Body, `"success":false`) || !strings.Contains(res.Body, fault.MsgUnavailable) {
		t.Errorf("%s: body %s", what, res.Body)
	}
}

// A request whose database work outlasts PARKING_DB_TIMEOUT (here a table locked by
// another connection) is a 503 with Retry-After, and nothing is saved; once the
// lock goes, the same booking succeeds (docs/reliability.md).
func TestDatabaseDeadline(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg := apptest.Config(t, d)
		cfg.DBTimeout = 300 * time.Millisecond
		a := apptest.StartWith(t, cfg)
		release := lockReservations(t, d, cfg.DatabaseURL)
		c := apptest.Client(t)

		res := webtest.PostJSON(t, c, a.URL+"/api/reservations/public-new", publicBooking("1234ABC"))
		want503(t, "booking on a locked table", res)
		release()
		if n := webtest.CountRows(t, a, "SELECT COUNT(*) FROM reservation"); n != 0 {
			t.Errorf("%d reservations saved by a request past its deadline", n)
		}
		// The lock is gone; the writer may still be in SQLite's busy wait (its
		// pauses grow to a second), so the service is given a bounded while to
		// write again. A 503 saves nothing, so the tries are harmless.
		for deadline := time.Now().Add(15 * time.Second); ; {
			res = webtest.PostJSON(t, c, a.URL+"/api/reservations/public-new", publicBooking("1234ABC"))
			if res.StatusCode != 503 || time.Now().After(deadline) {
				break
			}
		}
		webtest.WantStatus(t, res, 201)
		if n := webtest.CountRows(t, a, "SELECT COUNT(*) FROM reservation"); n != 1 {
			t.Errorf("%d reservations after one successful booking, want 1", n)
		}
	})
}

// lockReservations holds the reservation table locked from another connection
// until the returned function (also run at cleanup) releases it: on PostgreSQL an
// ACCESS EXCLUSIVE lock, on SQLite the database's write lock (BEGIN IMMEDIATE).
func lockReservations(t *testing.T, d store.Dialect, dbURL string) func() {
	t.Helper()
	return lockTable(t, d, dbURL, "reservation")
}

// lockTable is lockReservations for any table (PostgreSQL; SQLite locks the file).
func lockTable(t *testing.T, d store.Dialect, dbURL, table string) func() {
	t.Helper()
	ctx := context.Background()
	var db *sql.DB
	var err error
	lock := "LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE"
	if d == store.SQLite {
		// It waits for the service's own writer (a sweep at start may hold it).
		db, err = sql.Open("sqlite", "file:"+strings.TrimPrefix(dbURL, "sqlite:")+"?_pragma=busy_timeout(10000)")
		lock = "SELECT 1"
	} else {
		db, err = sql.Open("pgx", dbURL)
	}
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	begin := "BEGIN"
	if d == store.SQLite {
		begin = "BEGIN IMMEDIATE"
	}
	for _, q := range []string{begin, lock} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var once sync.Once
	release := func() {
		once.Do(func() {
			if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
				t.Errorf("release lock: %v", err)
			}
			conn.Close()
			db.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// waitReady polls /readyz until it answers want (the database is outside the
// test's control: a bounded poll, not a sleep).
func waitReady(t *testing.T, base string, want int) {
	t.Helper()
	c := apptest.Client(t)
	deadline := time.Now().Add(20 * time.Second)
	for {
		res := webtest.Do(t, c, "GET", base+"/readyz", nil)
		if res.StatusCode == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz still %d, want %d", res.StatusCode, want)
		}
		time.Sleep(50 * time.Millisecond) // poll interval of an external condition
	}
}

// With PostgreSQL unreachable, every route answers 503 with Retry-After in its own
// error shape, and a valid administrator session stays valid: a 503 page, never
// the login page (docs/reliability.md). When the database comes back, so does the service.
func TestDatabaseOutage(t *testing.T) {
	dbURL, px := storetest.ProxiedPostgres(t)
	cfg := apptest.Config(t, store.Postgres)
	cfg.DatabaseURL = dbURL
	a := apptest.StartWith(t, cfg)
	admin, adminUser := apptest.Admin(t, a)
	tok, err := a.Accounts.IssueToken(context.Background(), adminUser, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	const html = "Accept: text/html"
	webtest.WantStatus(t, webtest.Do(t, admin, "GET", a.URL+"/admin/parking", nil, html), 200)

	px.Cut()
	anon := apptest.Client(t)
	want503(t, "public booking", webtest.PostJSON(t, anon, a.URL+"/api/reservations/public-new", publicBooking("1234ABC")))
	want503(t, "login", webtest.PostJSON(t, anon, a.URL+"/users/login", map[string]any{"email": "admin@example.com", "password": "admin-password", "loginType": "worker"}))
	want503(t, "admin JSON with a session", webtest.Do(t, admin, "GET", a.URL+"/admin/parking", nil, "Accept: application/json"))

	page := webtest.Do(t, admin, "GET", a.URL+"/admin/parking", nil, html)
	if page.StatusCode != 503 || page.Header.Get("Retry-After") == "" || page.Header.Get("Location") != "" {
		t.Fatalf("admin page with a session: %d Location=%q Retry-After=%q", page.StatusCode, page.Header.Get("Location"), page.Header.Get("Retry-After"))
	}
	webtest.WantAll(t, "503 page", page.Body, "Servicio no disponible", fault.MsgUnavailable)

	events := webtest.Do(t, admin, "GET", a.URL+"/admin/parking/events", nil, "Accept: text/event-stream")
	if events.StatusCode != 503 || events.Header.Get("Location") != "" {
		t.Errorf("live board stream with a session: %d Location=%q", events.StatusCode, events.Header.Get("Location"))
	}

	api := webtest.Do(t, anon, "GET", a.URL+"/api/reservations", nil, "Authorization: Bearer "+tok.Token)
	if api.StatusCode != 503 || api.Header.Get("Retry-After") == "" || api.Body != `{"error":"Service Unavailable"}`+"\n" {
		t.Errorf("token API: %d %q Retry-After=%q", api.StatusCode, api.Body, api.Header.Get("Retry-After"))
	}
	ready := webtest.Do(t, anon, "GET", a.URL+"/readyz", nil)
	webtest.WantStatus(t, ready, 503)

	px.Restore()
	waitReady(t, a.URL, 200)
	webtest.WantStatus(t, webtest.PostJSON(t, anon, a.URL+"/api/reservations/public-new", publicBooking("1234ABC")), 201)
	webtest.WantStatus(t, webtest.Do(t, admin, "GET", a.URL+"/admin/parking", nil, html), 200)
}

// The live board's stream has no request deadline (it lives long), but its guard's
// session lookup does: with the session table locked on PostgreSQL, an
// administrator's stream is a 503 once PARKING_DB_TIMEOUT passes, not a hang nor
// the login page.
func TestDatabaseDeadlineOnStreamGuard(t *testing.T) {
	if os.Getenv(storetest.EnvPostgres) == "" {
		t.Skip(storetest.EnvPostgres + " not set: SQLite readers never wait for a lock")
	}
	cfg := apptest.Config(t, store.Postgres)
	cfg.DBTimeout = 300 * time.Millisecond
	a := apptest.StartWith(t, cfg)
	admin, _ := apptest.Admin(t, a)
	release := lockTable(t, store.Postgres, cfg.DatabaseURL, "web_session")
	res := webtest.Do(t, admin, "GET", a.URL+"/admin/parking/events", nil, "Accept: text/event-stream")
	release()
	if res.StatusCode != 503 || res.Header.Get("Retry-After") == "" || res.Header.Get("Location") != "" {
		t.Errorf("stream with the session table locked: %d Location=%q Retry-After=%q", res.StatusCode, res.Header.Get("Location"), res.Header.Get("Retry-After"))
	}
}
