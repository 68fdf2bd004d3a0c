package reports_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"strconv"
	"testing"
	"time"

	"parking/internal/booking"
	"parking/internal/datagen"
	"parking/internal/pricing"
	"parking/internal/reports"
	"parking/internal/store"
	"parking/internal/storetest"
)

// BenchmarkReport measures a month's and a year's report (docs/reports.md#performance,
// docs/performance.md#reports) on a history made by the generator behind `parking
// generate`: PARKING_BENCH_RESERVATIONS reservations (default 20,000; the figures of
// the docs name theirs) over three years, with a receipt for every finished stay (as
// the finalize issues it: issued at the exit, VAT 21 %) and one booking in ten made at
// the counter. Both databases (PostgreSQL with PARKING_TEST_POSTGRES_URL).
func BenchmarkReport(b *testing.B) {
	n := 20_000
	if v, err := strconv.Atoi(os.Getenv("PARKING_BENCH_RESERVATIONS")); err == nil && v > 0 {
		n = v
	}
	for _, d := range storetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			svc, _ := benchReports(b, d, n)
			for _, c := range []struct{ name, from, to string }{
				{"month", "2026-10-01", "2026-10-31"}, {"year", "2025-11-01", "2026-10-31"},
			} {
				b.Run(c.name, func(b *testing.B) {
					for b.Loop() {
						rep, err := svc.Report(context.Background(), reports.Query{From: c.from, To: c.to})
						if err != nil {
							b.Fatal(err)
						}
						if rep.Revenue.Receipts == 0 {
							b.Fatal("no receipts in the range")
						}
					}
				})
			}
		})
	}
}

func benchReports(b *testing.B, d store.Dialect, n int) (*reports.Service, *store.Store) {
	b.Helper()
	g := generate(b, d, 10*time.Hour, datagen.Options{Reservations: n, Places: 1000, Years: 3, Seed: 7})
	st, cat, loc, now, ctx, log := g.st, g.cat, g.loc, g.now, context.Background(), g.log
	for _, q := range []string{
		`INSERT INTO receipt (number, year, seq, id_reservation, kind, issued_at, seller_name, seller_tax_id, seller_address,
			vat_rate_bp, total_cents, base_cents, vat_cents, payment_method, chain_seq, issuer_id, issue_date, generated_at, prev_hash, hash)
		SELECT 'B' || CAST(id_reservation AS TEXT), 1999, id_reservation, id_reservation, 'F2', exit_date, 'Parking', 'B12345674', 'Madrid',
			2100, total_price_cents, (total_price_cents * 10000 + 6050) / 12100, total_price_cents - (total_price_cents * 10000 + 6050) / 12100,
			'TARJETA', id_reservation, 'B12345674', '-', '-', '', '-'
		FROM reservation WHERE status = 'FINALIZADA'`,
		`INSERT INTO audit_entry (at, actor_kind, actor_name, action, entity, entity_id, reservation_id, changes)
		SELECT reservation_date, 'staff', 'Ana', 'walk_in', 'reservation', CAST(id_reservation AS TEXT), id_reservation, '[]'
		FROM reservation WHERE id_reservation % 10 = 0`,
	} {
		if _, err := st.WriteDB().ExecContext(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	if err := st.Analyze(ctx); err != nil {
		b.Fatal(err)
	}
	// The history's closed hours join the summary once, as the first report after the
	// history was loaded would do (docs/reports.md#summary; that one-off cost is logged).
	start := time.Now()
	if _, err := st.Reports().Rollup(ctx, now, 0); err != nil {
		b.Fatal(err)
	}
	b.Logf("%s: summary of %d reservations rolled up in %s", d, n, time.Since(start).Round(time.Millisecond))
	bk := booking.New(st, cat, loc, log)
	return reports.New(st, loc, bk.Availability), st
}

// generated is a store holding a history made by the generator behind `parking
// generate`, in Europe/Madrid up to 2026-11-20 at the given time of day, the store's
// clock set there.
type generated struct {
	st  *store.Store
	cat *pricing.Holder
	loc *time.Location
	now time.Time
	log *slog.Logger
}

func generate(tb testing.TB, d store.Dialect, timeOfDay time.Duration, o datagen.Options) generated {
	tb.Helper()
	loc, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		tb.Fatal(err)
	}
	st, clk := storetest.OpenClock(tb, d)
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, loc).Add(timeOfDay)
	clk.Set(now)
	g := generated{st: st, cat: storetest.Catalog(tb, st), loc: loc, now: now, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	o.Now, o.Location = now, loc
	if _, err := datagen.Generate(context.Background(), st, o, g.log); err != nil {
		tb.Fatal(err)
	}
	return g
}
