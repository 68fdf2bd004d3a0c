package notify_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"parking/internal/booking"
	"parking/internal/notify"
	"parking/internal/pricing"
	"parking/internal/store"
	"parking/internal/storetest"
)

func testLog() *slog.Logger {
	var w io.Writer = io.Discard
	if os.Getenv("PARKING_TEST_LOG") == "1" {
		w = os.Stderr
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// env is a booking service on a fresh database, with an outbox that queues for the
// webhook when deliver is set.
type env struct {
	st     *store.Store
	svc    *booking.Service
	outbox *notify.Outbox
	url    string
}

func newEnv(t testing.TB, d store.Dialect, deliver bool) *env {
	t.Helper()
	url := storetest.URL(t, d)
	st := openStore(t, url)
	ctx := context.Background()
	if _, err := st.SeedCatalog(ctx, pricing.Default()); err != nil {
		t.Fatal(err)
	}
	cat, err := st.LoadCatalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	h := &pricing.Holder{}
	h.Store(pricing.NewSnapshot(cat))
	ob := notify.NewOutbox(madrid, deliver)
	return &env{st: st, outbox: ob, url: url, svc: booking.New(st, h, madrid, testLog(), booking.WithOutbox(ob))}
}

// openStore opens (and migrates) another connection to the same database, as a
// second process would.
func openStore(t testing.TB, url string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return st
}

var plateSeq struct {
	sync.Mutex
	n int
}

// book creates a public booking for a new customer and vehicle; email "" means none.
func (e *env) book(t testing.TB, email string) int64 {
	t.Helper()
	plateSeq.Lock()
	plateSeq.n++
	n := plateSeq.n
	plateSeq.Unlock()
	entry := time.Date(2026, 12, 1, 10, 0, 0, 0, madrid)
	exit := entry.Add(4*24*time.Hour + 3*time.Hour)
	c, err := e.svc.Create(context.Background(), booking.Public, booking.NewBooking{
		FullName: "Ana Pérez", Phone: "6" + pad(n), Email: email,
		LicensePlate: "T" + pad(n), VehicleType: "SUV",
		Entry: entry, Exit: &exit, MainService: 1, Extras: []int64{1},
	})
	if err != nil {
		t.Fatalf("create booking: %v", err)
	}
	return c.Reservation.ID
}

func pad(n int) string { return fmt.Sprintf("%08d", n) }

// fast is a tuning for tests: short polls and millisecond retries.
func fast() notify.Tuning {
	return notify.Tuning{
		Timeout: 2 * time.Second, Workers: 4, Poll: 20 * time.Millisecond,
		Backoff: func(int) time.Duration { return 10 * time.Millisecond }, Grace: time.Second,
	}
}

// delivery is one request the test receiver got.
type delivery struct {
	kind, id, signature string
	body                []byte
	at                  time.Time
}

// receiver is an httptest webhook that answers with respond(n), n counting requests
// from 1, and records every request.
type receiver struct {
	*httptest.Server
	mu  sync.Mutex
	got []delivery
}

func newReceiver(t testing.TB, respond func(n int, w http.ResponseWriter, r *http.Request)) *receiver {
	rc := &receiver{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, delivery{
			kind: r.Header.Get(notify.HeaderNotification), id: r.Header.Get(notify.HeaderDelivery),
			signature: r.Header.Get(notify.HeaderSignature), body: body, at: time.Now(),
		})
		n := len(rc.got)
		rc.mu.Unlock()
		respond(n, w, r)
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) deliveries() []delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]delivery(nil), rc.got...)
}

func ok(int, http.ResponseWriter, *http.Request) {}

func startDispatcher(t testing.TB, st *store.Store, url, secret string, wake <-chan struct{}, tune notify.Tuning) *notify.Dispatcher {
	t.Helper()
	tune = withTimeout(tune)
	d := notify.NewDispatcher(st, notify.NewHTTPSender(url, secret, tune.Timeout, 8), wake, testLog(), tune)
	d.Start()
	t.Cleanup(d.Stop)
	return d
}

func withTimeout(t notify.Tuning) notify.Tuning {
	if t.Timeout == 0 {
		t.Timeout = 2 * time.Second
	}
	return t
}

// waitFor polls cond until it holds or the timeout passes.
func waitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func history(t testing.TB, e *env, id int64) []notify.HistoryItem {
	t.Helper()
	h, err := e.svc.NotificationHistory(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func countRows(t testing.TB, st *store.Store, where string) int {
	t.Helper()
	var n int
	if err := st.DB().QueryRow("SELECT COUNT(*) FROM notification WHERE " + where).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
