// Command availbench measures GET /api/availability's work (docs/capacity.md#seeing-it) on a large
// database, such as the 1,000,000 reservations written by `parking generate`: the
// availability of 30-day ranges (the booking page's and the quote's question),
// starting on a random day from 10 days before today to 60 days after, so that
// ranges with today (the open stays are counted) and wholly future ranges (the
// ledger alone) are both in the mix. It prints the latency percentiles of the
// operation (booking.Availability → store) and, with -http, of the whole route
// through the service on 127.0.0.1 (handler, JSON, the public and the
// administrator's view).
//
//	go run ./bench/availbench -database-url sqlite:/var/tmp/bench.db
//	go run ./bench/availbench -database-url 'postgres://…' -http
package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"runtime"
	"slices"
	"time"

	"parking/bench/benchsetup"
	"parking/internal/occupancy"
)

func main() {
	timing := benchsetup.TimingFlags(2000, 200, "ranges", "also time GET /api/availability through the HTTP service")
	days := flag.Int("days", 30, "days per range")
	capacity := flag.Int("capacity", 0, "set the facility's capacity first (0: leave the settings as they are)")
	ctx, env := benchsetup.FromFlags("availbench")
	defer env.Store.Close()
	catalogOps, svc := env.Booking()
	var reservations int
	env.Check(env.Store.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM reservation`).Scan(&reservations))
	f, err := catalogOps.Facility(ctx)
	env.Check(err)
	if *capacity > 0 {
		f.Capacity = *capacity
		f, err = catalogOps.SaveFacility(ctx, f)
		env.Check(err)
	}

	today := occupancy.DayOf(time.Now(), env.Loc)
	n, warm := timing.Queries, timing.Warmup
	rng := rand.New(rand.NewPCG(1, 2))
	spans := make([]occupancy.Span, warm+n)
	for i := range spans {
		first := today - 10 + occupancy.Day(rng.IntN(71))
		spans[i] = occupancy.Span{First: first, Last: first + occupancy.Day(*days-1)}
	}
	fmt.Printf("availbench: %s, %d reservations, capacity %d (sellable %d), %d ranges of %d days (+%d warm-up), GOMAXPROCS=%d\n",
		benchsetup.Redact(env.URL), reservations, f.Capacity, f.SellableLimit(), n, *days, warm, runtime.GOMAXPROCS(0))
	fmt.Printf("load average before: %s\n", benchsetup.LoadAverage())

	time1 := func(name string, run func(occupancy.Span) error) {
		for _, sp := range spans[:warm] {
			env.Check(run(sp))
		}
		// The ranges that include today or earlier days count the open stays too.
		var all, withToday, future []time.Duration
		for _, sp := range spans[warm:] {
			t := time.Now()
			env.Check(run(sp))
			d := time.Since(t)
			all = append(all, d)
			if sp.First <= today {
				withToday = append(withToday, d)
			} else {
				future = append(future, d)
			}
		}
		for _, g := range []struct {
			what string
			ds   []time.Duration
		}{{"all", all}, {"ranges with today", withToday}, {"future ranges", future}} {
			ds := g.ds
			if len(ds) == 0 {
				continue
			}
			slices.Sort(ds)
			p := func(q float64) string { return ds[int(q*float64(len(ds)-1))].Round(time.Microsecond).String() }
			fmt.Printf("%-42s %-18s n %5d  p50 %8s  p90 %8s  p99 %8s  max %8s\n", name, g.what, len(ds), p(.50), p(.90), p(.99), ds[len(ds)-1].Round(time.Microsecond))
		}
	}
	time1("operation (booking.Availability → store)", func(sp occupancy.Span) error {
		_, err := svc.Availability(ctx, sp)
		return err
	})
	if timing.HTTP {
		a := env.StartService(ctx)
		defer a.Close()
		client := &http.Client{Timeout: 10 * time.Second}
		get := func(sp occupancy.Span) error {
			res, err := client.Get(a.URL + "/api/availability?from=" + sp.First.String() + "&to=" + sp.Last.String())
			if err != nil {
				return err
			}
			defer res.Body.Close()
			if _, err := io.Copy(io.Discard, res.Body); err != nil {
				return err
			}
			if res.StatusCode != http.StatusOK {
				return fmt.Errorf("GET /api/availability: %d", res.StatusCode)
			}
			return nil
		}
		time1("HTTP GET /api/availability (public)", get)
	}
	fmt.Printf("load average after:  %s\n", benchsetup.LoadAverage())
}
