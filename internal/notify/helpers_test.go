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
	"parking/internal/clock"
	"parking/internal/clock/clocktest"
	"parking/internal/handover"
	"parking/internal/input"
	"parking/internal/notify"
	"parking/internal/records"
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
// webhook when deliver is set. Its clock is a fake that the test moves; p hears of
// every step of the test's receivers and dispatchers.
type env struct {
	st     *store.Store
	svc    *booking.Service
	reads  *records.Service  // the notification history, as the detail shows it
	photos *handover.Service // photos for the check-in
	outbox *notify.Outbox
	url    string
	clk    *clock.Fake
	p      *progress
}

func newEnv(t testing.TB, d store.Dialect, deliver bool) *env {
	t.Helper()
	url := storetest.URL(t, d)
	clk := clocktest.New()
	st := storetest.OpenURL(t, url, store.Options{Clock: clk.Now})
	h := storetest.Catalog(t, st)
	ob := notify.NewOutbox(madrid, deliver)
	return &env{st: st, outbox: ob, url: url, clk: clk, p: newProgress(),
		svc: booking.New(st, h, madrid, testLog(), booking.WithOutbox(ob)), reads: records.New(st, h, madrid, input.Rules{}),
		photos: handover.New(st, testLog())}
}

// openStore opens (and migrates) another connection to the same database, as a
// second process would; it shares the test's clock.
func (e *env) openStore(t testing.TB) *store.Store {
	t.Helper()
	return storetest.OpenURL(t, e.url, store.Options{Clock: e.clk.Now})
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
	// Less than 24 hours ahead: no booking_reminder (reminder_test.go covers it),
	// so each booking has exactly its confirmation row.
	entry := clocktest.Day(0, 20, 0) // 2026-11-20 20:00 on the default base
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

// fast is a tuning for tests: short polls, and retries due at once (the test
// clock stands still; tests of the backoff itself move it).
func fast() notify.Tuning {
	return notify.Tuning{
		Timeout: 2 * time.Second, Workers: 4, Poll: 20 * time.Millisecond,
		Backoff: func(int) time.Duration { return 0 }, Grace: time.Second,
	}
}

// progress wakes a waiting test whenever one of its receivers got a request or one
// of its dispatchers claimed or recorded; it keeps the claim passes.
type progress struct {
	kick   chan struct{}
	mu     sync.Mutex
	claims []notify.Progress
}

func newProgress() *progress { return &progress{kick: make(chan struct{}, 1)} }

func (p *progress) poke() {
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

func (p *progress) observe(s notify.Progress) {
	if s.Claim {
		p.mu.Lock()
		p.claims = append(p.claims, s)
		p.mu.Unlock()
	}
	p.poke()
}

// waitFor waits until cond holds, checking it again after every step of the test's
// receivers and dispatchers; timeout only bounds a failing test.
func (p *progress) waitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	limit := time.NewTimer(timeout)
	defer limit.Stop()
	for !cond() {
		select {
		case <-p.kick:
		case <-limit.C:
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
	}
}

// quietAt proves that nothing is due at instant at: it waits for a claim pass made
// at or after at and fails if that pass claimed anything. With the clock standing
// still, nothing more can then be sent until the test moves it.
func (p *progress) quietAt(t testing.TB, at time.Time) {
	t.Helper()
	var pass notify.Progress
	p.waitFor(t, 5*time.Second, "a claim pass at "+at.String(), func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, c := range p.claims {
			if !c.At.Before(at) {
				pass = c
				return true
			}
		}
		return false
	})
	if pass.Claimed != 0 {
		t.Errorf("claim pass at %s claimed %d rows, want none due", pass.At, pass.Claimed)
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

func newReceiver(t testing.TB, p *progress, respond func(n int, w http.ResponseWriter, r *http.Request)) *receiver {
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
		p.poke()
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

// startDispatcher starts a dispatcher on st (e.st when nil) that reports to e.p.
func (e *env) startDispatcher(t testing.TB, st *store.Store, url, secret string, wake <-chan struct{}, tune notify.Tuning) *notify.Dispatcher {
	t.Helper()
	if st == nil {
		st = e.st
	}
	tune = withTimeout(tune)
	d := notify.NewDispatcher(st, notify.NewHTTPSender(url, secret, tune.Timeout, 8).WithClock(st.Clock()), wake, testLog(), tune)
	d.Observe(e.p.observe)
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

func history(t testing.TB, e *env, id int64) []notify.HistoryItem {
	t.Helper()
	h, err := e.reads.NotificationHistory(context.Background(), id)
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
