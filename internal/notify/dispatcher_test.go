package notify_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"parking/internal/notify"
	"parking/internal/store"
	"parking/internal/storetest"
)

// A receiver that fails twice with 500 then accepts: delivered once, the three
// requests carry the same delivery id, and the history shows three attempts.
func TestRetryAfterServerErrors(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		rc := newReceiver(t, e.p, func(n int, w http.ResponseWriter, r *http.Request) {
			if n <= 2 {
				http.Error(w, "upstream down", http.StatusInternalServerError)
			}
		})
		e.startDispatcher(t, nil, rc.URL, "", e.outbox.Wake(), fast())
		id := e.book(t, "ana@example.com")
		e.p.waitFor(t, 5*time.Second, "the row to be sent", func() bool { return history(t, e, id)[0].Status == "sent" })

		got := rc.deliveries()
		if len(got) != 3 {
			t.Fatalf("requests = %d, want 3 (500, 500, 200)", len(got))
		}
		for _, g := range got {
			if g.id != got[0].id || g.id == "" || g.kind != "booking_confirmation" || string(g.body) != string(got[0].body) {
				t.Errorf("request %+v differs from the first (id %s): a retry must resend the same delivery", g, got[0].id)
			}
		}
		h := history(t, e, id)[0]
		if h.Attempts != 3 || h.SentAt == nil || h.LastError == nil || !strings.HasPrefix(*h.LastError, "HTTP 500 Internal Server Error: upstream down") {
			t.Errorf("history = %+v (last_error %v), want sent after 3 attempts, the last error kept", h, deref(h.LastError))
		}
		// Nothing more is due, even a day later.
		e.p.quietAt(t, e.clk.Advance(24*time.Hour))
		if n := len(rc.deliveries()); n != 3 {
			t.Errorf("requests = %d after delivery, want 3", n)
		}
	})
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// A 4xx other than 429 is final: failed after one attempt, never retried. A 429 is
// retried.
func TestClientErrorIsFinal(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		var mu sync.Mutex
		status := map[string]int{}
		rc := newReceiver(t, e.p, func(n int, w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			defer mu.Unlock()
			if r.Header.Get(notify.HeaderNotification) == "invoice" {
				status["invoice"]++
				if status["invoice"] == 1 {
					w.WriteHeader(http.StatusTooManyRequests)
				}
				return
			}
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"bad payload"}`))
		})
		e.startDispatcher(t, nil, rc.URL, "", e.outbox.Wake(), fast())
		id := e.book(t, "ana@example.com")
		if err := e.svc.RequestInvoice(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		e.p.waitFor(t, 5*time.Second, "both rows settled", func() bool {
			h := history(t, e, id)
			return len(h) == 2 && h[0].Status == "failed" && h[1].Status == "sent"
		})
		e.p.quietAt(t, e.clk.Advance(24*time.Hour)) // past any backoff: nothing more is due
		h := history(t, e, id)
		if h[0].Attempts != 1 || deref(h[0].LastError) != `HTTP 400 Bad Request: {"error":"bad payload"}` {
			t.Errorf("400 row = %+v (%s), want failed after 1 attempt with the answer", h[0], deref(h[0].LastError))
		}
		if h[1].Attempts != 2 {
			t.Errorf("429 row = %+v, want sent on the second attempt", h[1])
		}
		n := 0
		for _, g := range rc.deliveries() {
			if g.kind == "booking_confirmation" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("the 400 notification was posted %d times, want 1", n)
		}
	})
}

// A retryable failure on the last allowed attempt is final.
func TestAttemptsExhausted(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		rc := newReceiver(t, e.p, func(n int, w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) })
		tune := fast()
		tune.MaxAttempts = 3
		e.startDispatcher(t, nil, rc.URL, "", e.outbox.Wake(), tune)
		id := e.book(t, "ana@example.com")
		e.p.waitFor(t, 5*time.Second, "the row to fail", func() bool { return history(t, e, id)[0].Status == "failed" })
		h := history(t, e, id)[0]
		if h.Attempts != 3 || deref(h.LastError) != "HTTP 503 Service Unavailable (gave up after 3 attempts)" {
			t.Errorf("history = %+v (%s)", h, deref(h.LastError))
		}
		if n := len(rc.deliveries()); n != 3 {
			t.Errorf("requests = %d, want 3", n)
		}
	})
}

// The signature header is the hex HMAC-SHA256 of the exact body with the secret;
// without a secret there is no signature header.
func TestSignature(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		secret := []byte("s3cret-key")
		rc := newReceiver(t, e.p, ok)
		e.startDispatcher(t, nil, rc.URL, string(secret), e.outbox.Wake(), fast())
		e.book(t, "ana@example.com")
		e.p.waitFor(t, 5*time.Second, "a delivery", func() bool { return len(rc.deliveries()) == 1 })
		g := rc.deliveries()[0]
		if !strings.HasPrefix(g.signature, "sha256=") || len(g.signature) != len("sha256=")+64 {
			t.Fatalf("signature header = %q, want sha256=<64 hex>", g.signature)
		}
		if !notify.Verify(secret, g.body, g.signature) {
			t.Errorf("signature %s does not verify the body", g.signature)
		}
		if notify.Verify([]byte("other"), g.body, g.signature) || notify.Verify(secret, append(g.body, ' '), g.signature) {
			t.Error("signature verifies with a wrong key or a changed body")
		}

		e2 := newEnv(t, d, true)
		plain := newReceiver(t, e2.p, ok)
		e2.startDispatcher(t, nil, plain.URL, "", e2.outbox.Wake(), fast())
		e2.book(t, "ana@example.com")
		e2.p.waitFor(t, 5*time.Second, "a delivery", func() bool { return len(plain.deliveries()) == 1 })
		if s := plain.deliveries()[0].signature; s != "" {
			t.Errorf("signature without a secret = %q, want none", s)
		}
	})
}

// A receiver that hangs: the timeout cuts the attempt, which is recorded as a
// retryable failure.
func TestTimeoutHonoured(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		release := make(chan struct{})
		rc := newReceiver(t, e.p, func(n int, w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		})
		defer close(release)
		tune := fast()
		tune.Timeout = 200 * time.Millisecond
		tune.Backoff = func(int) time.Duration { return time.Hour }
		e.startDispatcher(t, nil, rc.URL, "", e.outbox.Wake(), tune)
		start := time.Now()
		id := e.book(t, "ana@example.com")
		e.p.waitFor(t, 5*time.Second, "the attempt to be recorded", func() bool { return history(t, e, id)[0].Attempts == 1 })
		took := time.Since(start)
		h := history(t, e, id)[0]
		if h.Status != "pending" || deref(h.LastError) != "timeout after 200ms" {
			t.Errorf("history = %+v (%s), want pending with the timeout", h, deref(h.LastError))
		}
		if took < 200*time.Millisecond || took > 2*time.Second {
			t.Errorf("attempt recorded after %s, want just over the 200ms timeout", took)
		}
	})
}

// A dispatcher stopped with rows in flight and in the queue (its receiver hangs)
// leaves them pending, uncounted; a new dispatcher (a new process) delivers them.
func TestStoppedDispatcherLeavesRowsForTheNext(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		hang := newReceiver(t, e.p, func(n int, w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
		tune := fast()
		tune.Workers = 2
		tune.Timeout = 30 * time.Second
		tune.Grace = 100 * time.Millisecond
		first := notify.NewDispatcher(e.st, notify.NewHTTPSender(hang.URL, "", tune.Timeout, 2), e.outbox.Wake(), testLog(), tune)
		first.Start()
		var ids []int64
		for range 6 {
			ids = append(ids, e.book(t, "ana@example.com"))
		}
		e.p.waitFor(t, 5*time.Second, "two deliveries in flight", func() bool { return len(hang.deliveries()) == 2 })
		stopped := time.Now()
		first.Stop()
		if took := time.Since(stopped); took > 2*time.Second {
			t.Errorf("Stop took %s with a 100ms grace", took)
		}
		if n := countRows(t, e.st, "status = 'pending' AND attempts = 0 AND locked_until IS NULL"); n != 6 {
			t.Errorf("after stop: %d rows pending, unleased and uncounted, want 6", n)
		}

		// A new process: its own connections, its own dispatcher.
		st2 := e.openStore(t)
		good := newReceiver(t, e.p, ok)
		e.startDispatcher(t, st2, good.URL, "", nil, fast())
		e.p.waitFor(t, 5*time.Second, "all six delivered", func() bool {
			return countRows(t, e.st, "status = 'sent'") == 6
		})
		seen := map[string]bool{}
		for _, g := range good.deliveries() {
			seen[g.id] = true
		}
		if len(seen) != 6 || len(good.deliveries()) != 6 {
			t.Errorf("new dispatcher: %d requests for %d deliveries, want 6 and 6", len(good.deliveries()), len(seen))
		}
		for _, id := range ids {
			if h := history(t, e, id)[0]; h.Attempts != 1 {
				t.Errorf("reservation %d: attempts = %d, want 1 (the interrupted one not counted)", id, h.Attempts)
			}
		}
	})
}

// Two dispatchers (two instances) sharing one database deliver every row exactly
// once. On PostgreSQL this exercises FOR UPDATE SKIP LOCKED and the lease; on SQLite,
// two processes on one file.
func TestTwoDispatchersDeliverEachRowOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		const n = 300
		id := e.book(t, "ana@example.com")
		ctx := context.Background()
		err := e.st.InTx(ctx, func(tx *store.Tx) error {
			for range n - 1 {
				if _, err := e.outbox.Enqueue(ctx, tx, notify.Invoice, id, notify.Options{}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		perID := map[string]int{}
		rc := newReceiver(t, e.p, func(_ int, w http.ResponseWriter, r *http.Request) {
			time.Sleep(time.Millisecond) // keep several deliveries in flight on both
			mu.Lock()
			perID[r.Header.Get(notify.HeaderDelivery)]++
			mu.Unlock()
		})
		a := e.startDispatcher(t, e.openStore(t), rc.URL, "", nil, fast())
		b := e.startDispatcher(t, e.openStore(t), rc.URL, "", nil, fast())
		e.p.waitFor(t, 20*time.Second, "all rows sent", func() bool { return countRows(t, e.st, "status = 'sent'") == n })
		a.Stop()
		b.Stop()
		mu.Lock()
		defer mu.Unlock()
		if len(perID) != n {
			t.Errorf("distinct deliveries = %d, want %d", len(perID), n)
		}
		for id, c := range perID {
			if c != 1 {
				t.Errorf("delivery %s posted %d times", id, c)
			}
		}
		if m := countRows(t, e.st, "attempts <> 1"); m != 0 {
			t.Errorf("%d rows with attempts other than 1", m)
		}
	})
}

// The default policy meets docs/notifications.md#delivery (at least 8 attempts spread over at least
// 6 hours) and outlasts a webhook down for a whole day, even with the jitter at its
// lowest.
func TestDefaultBackoffSchedule(t *testing.T) {
	low := notify.Exponential(notify.DefaultBackoffBase, notify.DefaultBackoffMax, 0)
	var total time.Duration
	for a := 1; a < notify.DefaultMaxAttempts; a++ {
		total += low(a)
	}
	if notify.DefaultMaxAttempts < 8 {
		t.Errorf("max attempts = %d, want ≥ 8", notify.DefaultMaxAttempts)
	}
	if worst := time.Duration(float64(total) * (1 - notify.DefaultJitter)); worst < 24*time.Hour {
		t.Errorf("first to last attempt at least %s, want ≥ 24h (a day-long outage)", worst)
	}
	if got := low(1); got != time.Minute {
		t.Errorf("first delay = %s, want 1m", got)
	}
	if got := low(30); got != notify.DefaultBackoffMax {
		t.Errorf("delay is not capped: %s", got)
	}
	jit := notify.DefaultBackoff()
	for range 200 {
		if d := jit(3); d < 192*time.Second || d > 288*time.Second {
			t.Fatalf("jittered third delay %s outside 4m ± 20%%", d)
		}
	}
}

// A lease that expired (its dispatcher died) is taken over, and the late outcome of
// the old holder is not recorded over the new one.
func TestExpiredLeaseIsTakenOver(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		e.book(t, "ana@example.com")
		ctx := context.Background()
		now := e.clk.Now()
		first, err := e.st.Outbox().ClaimNotifications(ctx, now, time.Minute, "first", 10)
		if err != nil || len(first) != 1 {
			t.Fatalf("claim = %v, %v; want one row", first, err)
		}
		if again, err := e.st.Outbox().ClaimNotifications(ctx, now.Add(30*time.Second), time.Minute, "second", 10); err != nil || len(again) != 0 {
			t.Fatalf("claim under a live lease = %v, %v; want none", again, err)
		}
		second, err := e.st.Outbox().ClaimNotifications(ctx, now.Add(2*time.Minute), time.Minute, "second", 10)
		if err != nil || len(second) != 1 || second[0].DeliveryID != first[0].DeliveryID {
			t.Fatalf("claim after expiry = %v, %v; want the same row", second, err)
		}
		lost, err := e.st.Outbox().RecordDeliveries(ctx, []store.DeliveryOutcome{{ID: first[0].ID, LeaseToken: "first", Kind: store.GaveUp, Error: "late"}})
		if err != nil || len(lost) != 1 {
			t.Fatalf("late outcome: lost = %v, %v; want it refused", lost, err)
		}
		lost, err = e.st.Outbox().RecordDeliveries(ctx, []store.DeliveryOutcome{{ID: second[0].ID, LeaseToken: "second", Kind: store.Delivered, At: e.clk.Now()}})
		if err != nil || len(lost) != 0 {
			t.Fatalf("current outcome: lost = %v, %v", lost, err)
		}
		if n := countRows(t, e.st, "status = 'sent' AND attempts = 1 AND last_error IS NULL"); n != 1 {
			t.Errorf("sent rows = %d, want the one, recorded once", n)
		}
	})
}

// Operators: a failed row queued again is delivered with its delivery id; a row
// skipped for lack of an email cannot be.
func TestRetryByHand(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		var mu sync.Mutex
		accept := false
		rc := newReceiver(t, e.p, func(_ int, w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			defer mu.Unlock()
			if !accept {
				w.WriteHeader(http.StatusGone)
			}
		})
		e.startDispatcher(t, nil, rc.URL, "", e.outbox.Wake(), fast())
		id := e.book(t, "ana@example.com")
		e.p.waitFor(t, 5*time.Second, "failure", func() bool { return history(t, e, id)[0].Status == "failed" })
		ctx := context.Background()
		row := history(t, e, id)[0]

		mu.Lock()
		accept = true
		mu.Unlock()
		n, err := notify.Retry(ctx, e.st, row.ID)
		if err != nil || n.Status != "pending" {
			t.Fatalf("retry = %+v, %v", n, err)
		}
		e.p.waitFor(t, 5*time.Second, "delivery", func() bool { return history(t, e, id)[0].Status == "sent" })
		got := rc.deliveries()
		if len(got) != 2 || got[0].id != got[1].id {
			t.Errorf("requests = %d, same id %v; want 2 with one delivery id", len(got), len(got) == 2 && got[0].id == got[1].id)
		}
		if h := history(t, e, id)[0]; h.Attempts != 2 {
			t.Errorf("attempts = %d, want 2", h.Attempts)
		}
		if _, err := notify.Retry(ctx, e.st, row.ID); err == nil || !strings.Contains(err.Error(), "is sent") {
			t.Errorf("retry of a sent row: err = %v", err)
		}
		noEmail := e.book(t, "")
		if _, err := notify.Retry(ctx, e.st, history(t, e, noEmail)[0].ID); err == nil {
			t.Error("retry of a row skipped for lack of email: no error")
		}
		if _, err := notify.Retry(ctx, e.st, 99999); err == nil {
			t.Error("retry of an unknown row: no error")
		}
	})
}

// A receiver that cannot be reached is a retryable failure, and the recorded error
// does not repeat the webhook address (it may hold a secret path).
func TestUnreachableWebhook(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		rc := newReceiver(t, e.p, ok)
		url := rc.URL + "/hook/s3cr3t-path"
		rc.Close() // nothing listens there any more
		tune := fast()
		tune.Backoff = func(int) time.Duration { return time.Hour }
		e.startDispatcher(t, nil, url, "", e.outbox.Wake(), tune)
		id := e.book(t, "ana@example.com")
		e.p.waitFor(t, 5*time.Second, "the failed attempt", func() bool { return history(t, e, id)[0].Attempts == 1 })
		h := history(t, e, id)[0]
		if h.Status != "pending" || !strings.HasPrefix(deref(h.LastError), "POST webhook: dial tcp") || strings.Contains(deref(h.LastError), "s3cr3t") {
			t.Errorf("history = %+v (%s), want pending with a connection error and no URL", h, deref(h.LastError))
		}
	})
}

// A retry waits for its backoff on the service's clock: a claim pass a second
// before it is due claims nothing, and the row goes once the clock reaches it.
func TestRetryWaitsForBackoffOnTheClock(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		rc := newReceiver(t, e.p, func(n int, w http.ResponseWriter, r *http.Request) {
			if n == 1 {
				w.WriteHeader(http.StatusBadGateway)
			}
		})
		tune := fast()
		tune.Backoff = func(int) time.Duration { return time.Minute }
		e.startDispatcher(t, nil, rc.URL, "", e.outbox.Wake(), tune)
		start := e.clk.Now()
		id := e.book(t, "ana@example.com")
		e.p.waitFor(t, 5*time.Second, "the failed attempt", func() bool { return history(t, e, id)[0].Attempts == 1 })
		if next := nextAttempt(t, e, id); !next.Equal(start.Add(time.Minute)) {
			t.Errorf("next attempt at %v, want the clock's %v plus the 1m backoff", next, start)
		}
		e.p.quietAt(t, e.clk.Advance(59*time.Second))
		if n := len(rc.deliveries()); n != 1 {
			t.Fatalf("requests = %d before the backoff ended, want 1", n)
		}
		e.clk.Advance(time.Second)
		e.p.waitFor(t, 5*time.Second, "the retry", func() bool { return history(t, e, id)[0].Status == "sent" })
	})
}

// A Retry-After given as an HTTP date is read against the service's clock, not
// the machine's: the retry comes when the clock reaches that date.
func TestRetryAfterDateOnTheClock(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		until := e.clk.Now().Add(10 * time.Minute).Truncate(time.Second)
		rc := newReceiver(t, e.p, func(n int, w http.ResponseWriter, r *http.Request) {
			if n == 1 {
				w.Header().Set("Retry-After", until.Format(http.TimeFormat))
				w.WriteHeader(http.StatusTooManyRequests)
			}
		})
		e.startDispatcher(t, nil, rc.URL, "", e.outbox.Wake(), fast())
		id := e.book(t, "ana@example.com")
		e.p.waitFor(t, 5*time.Second, "the throttled attempt", func() bool { return history(t, e, id)[0].Attempts == 1 })
		if next := nextAttempt(t, e, id); !next.Equal(until) {
			t.Errorf("next attempt at %v, want the Retry-After date %v", next, until)
		}
		e.p.quietAt(t, e.clk.Advance(until.Sub(e.clk.Now())-time.Second))
		e.clk.Set(until)
		e.p.waitFor(t, 5*time.Second, "the retry", func() bool { return history(t, e, id)[0].Status == "sent" })
		if n := len(rc.deliveries()); n != 2 {
			t.Errorf("requests = %d, want 2", n)
		}
	})
}

// nextAttempt reads when the first notification of reservation id is due.
func nextAttempt(t *testing.T, e *env, id int64) time.Time {
	t.Helper()
	var next time.Time
	if err := e.st.DB().QueryRow("SELECT next_attempt_at FROM notification WHERE id = $1", history(t, e, id)[0].ID).Scan(&next); err != nil {
		t.Fatal(err)
	}
	return next
}
