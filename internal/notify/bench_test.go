package notify_test

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parking/internal/notify"
	"parking/internal/store"
	"parking/internal/storetest"
)

// Measurements (README: Notifications). Run them short, one database at a time:
//
//	go test ./internal/notify/ -run '^$' -bench Drain -benchtime 5000x
//	go test ./internal/notify/ -run '^$' -bench CommitToDelivery -benchtime 5000x

// BenchmarkDrain: b.N committed rows are waiting; how fast does one dispatcher post
// them to a local receiver and record them sent? Reports notifications/s.
func BenchmarkDrain(b *testing.B) {
	for _, d := range storetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			e := newEnv(b, d, true)
			id := e.book(b, "ana@example.com")
			ctx := context.Background()
			for left := b.N - 1; left > 0; {
				n := min(left, 1000)
				err := e.st.InTx(ctx, func(tx *store.Tx) error {
					for range n {
						if _, err := e.outbox.Enqueue(ctx, tx, notify.Invoice, id, notify.Options{}); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
				left -= n
			}
			var got atomic.Int64
			rc := newReceiver(b, e.p, func(int, http.ResponseWriter, *http.Request) { got.Add(1) })
			tune := notify.Tuning{Timeout: 10 * time.Second, Workers: 16}
			b.ResetTimer()
			start := time.Now()
			disp := notify.NewDispatcher(e.st, notify.NewHTTPSender(rc.URL, "secret", tune.Timeout, tune.Workers), nil, testLog(), tune)
			disp.Start()
			e.p.waitFor(b, 10*time.Minute, "every delivery", func() bool { return got.Load() >= int64(b.N) })
			disp.Stop() // records the last outcomes
			elapsed := time.Since(start)
			b.StopTimer()
			if n := countRows(b, e.st, "status = 'sent'"); n != b.N {
				b.Fatalf("sent rows = %d, want %d", n, b.N)
			}
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "notifications/s")
		})
	}
}

// BenchmarkCommitToDelivery: b.N public bookings made by 8 concurrent clients
// against a dispatcher with the production tuning (2 s poll: every fast delivery
// is the commit's wake-up). Reports the delay from each booking's call (before the
// transaction even began, so an upper bound of commit-to-delivery) to its
// confirmation reaching the receiver, p50 and p99 in milliseconds.
func BenchmarkCommitToDelivery(b *testing.B) {
	for _, d := range storetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			e := newEnv(b, d, true)
			rc := newReceiver(b, e.p, ok)
			tune := notify.Tuning{Timeout: 10 * time.Second, Workers: 16}
			disp := notify.NewDispatcher(e.st, notify.NewHTTPSender(rc.URL, "", tune.Timeout, tune.Workers), e.outbox.Wake(), testLog(), tune)
			disp.Start()
			defer disp.Stop()

			var smu sync.Mutex
			started := map[string]time.Time{}
			b.SetParallelism(4) // 4 × GOMAXPROCS clients
			b.ResetTimer()
			begin := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					t0 := time.Now()
					id := e.book(b, "ana@example.com")
					smu.Lock()
					started[strconv.FormatInt(id, 10)] = t0
					smu.Unlock()
				}
			})
			bookingsPerSec := float64(b.N) / time.Since(begin).Seconds()
			e.p.waitFor(b, 30*time.Second, "every confirmation", func() bool { return len(rc.deliveries()) >= b.N })
			b.StopTimer()
			delays := make([]time.Duration, 0, b.N)
			for _, g := range rc.deliveries() {
				var p notify.Nested
				if err := json.Unmarshal(g.body, &p); err != nil {
					b.Fatal(err)
				}
				t0, ok := started[p.Reserva.IDReservation]
				if !ok {
					b.Fatalf("confirmation for unknown reservation %q", p.Reserva.IDReservation)
				}
				delays = append(delays, g.at.Sub(t0))
			}
			sort.Slice(delays, func(i, j int) bool { return delays[i] < delays[j] })
			pct := func(p float64) float64 {
				return float64(delays[int(p*float64(len(delays)-1))].Microseconds()) / 1000
			}
			b.ReportMetric(bookingsPerSec, "bookings/s")
			b.ReportMetric(pct(0.50), "p50_ms")
			b.ReportMetric(pct(0.99), "p99_ms")
			b.ReportMetric(float64(delays[len(delays)-1].Microseconds())/1000, "max_ms")
		})
	}
}
