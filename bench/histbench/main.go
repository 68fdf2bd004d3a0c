// Command histbench measures the administrators' history search (GET /admin/history
// ?search=) on a large database, such as the 1,000,000 reservations written by
// `parking generate`. It samples real plates and names from the database, builds a
// mix of the searches staff type (parts of plates, full names, name and surname,
// a lone surname or first name), runs them one after the other, and prints the
// latency percentiles per kind and overall. With -http it goes through the whole
// service (session, handler, JSON) on 127.0.0.1; with -explain it prints the query
// plans of one search of each kind.
//
//	go run ./bench/histbench -database-url sqlite:/var/tmp/bench.db -queries 600
//	go run ./bench/histbench -database-url 'postgres://…' -http -explain
//
// scripts/bench-history.sh runs it on both databases.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"parking/bench/benchsetup"
	"parking/internal/input"
	"parking/internal/localtime"
	"parking/internal/records"
	"parking/internal/reservation"
	"parking/internal/store"
)

// kind is one sort of search, with its share of the mix.
type kind struct {
	name   string
	weight int
	make   func(plate, fullName string, rng *rand.Rand) string
}

var kinds = []kind{
	{"plate, 4 digits", 15, func(p, _ string, _ *rand.Rand) string { return p[:4] }},
	{"plate, 5-6 chars", 15, func(p, _ string, rng *rand.Rand) string {
		n := 5 + rng.IntN(2)
		start := rng.IntN(len(p) - n + 1)
		return strings.ToLower(p[start : start+n])
	}},
	{"plate, whole", 15, func(p, _ string, _ *rand.Rand) string { return strings.ToLower(p) }},
	{"full name", 10, func(_, n string, _ *rand.Rand) string { return n }},
	{"first name + surname", 15, func(_, n string, _ *rand.Rand) string {
		w := strings.Fields(n)
		return strings.ToLower(w[0] + " " + w[1])
	}},
	{"two surnames", 10, func(_, n string, _ *rand.Rand) string {
		w := strings.Fields(n)
		return strings.Join(w[1:], " ")
	}},
	{"surname alone", 15, func(_, n string, _ *rand.Rand) string { return strings.ToLower(strings.Fields(n)[1]) }},
	{"first name alone", 5, func(_, n string, _ *rand.Rand) string { return strings.Fields(n)[0] }},
}

type query struct {
	kind   int
	search string
	page   int
}

func main() {
	timing := benchsetup.TimingFlags(600, 60, "searches", "go through the HTTP service instead of calling the operation")
	seed := flag.Uint64("seed", 1, "random seed of the mix")
	explain := flag.Bool("explain", false, "print the query plans of one search of each kind")
	explainSearch := flag.String("explain-search", "", "print the plans of this one search (with -explain-status, -explain-from, -explain-to)")
	explainStatus := flag.String("explain-status", "", "status filter of -explain-search")
	explainFrom := flag.String("explain-from", "", "dateFrom (first entry day, YYYY-MM-DD) of -explain-search")
	explainTo := flag.String("explain-to", "", "dateTo (last entry day, YYYY-MM-DD) of -explain-search")
	others := flag.Bool("others", false, "also time the history without search, with filters, and the parking board")
	pages := flag.Int("deep-page-share", 10, "percent of searches asking for page 2 or 3")
	ctx, env := benchsetup.FromFlags("histbench")
	st, loc := env.Store, env.Loc
	defer st.Close()
	svc := records.New(st, env.Catalog, loc, input.Rules{})
	n, warm := timing.Queries, timing.Warmup

	rng := rand.New(rand.NewPCG(*seed, *seed+1))
	queries := sample(ctx, st, rng, warm+n, *pages)

	run := func(q query) (int, error) {
		p, err := svc.History(ctx, records.HistoryQuery{Search: q.search, Page: q.page})
		return p.Total, err
	}
	mode := "operation (records.History → store)"
	if timing.HTTP {
		run, mode = httpRunner(ctx, env)
	}

	fmt.Printf("histbench: %s, %s, %d searches (+%d warm-up), GOMAXPROCS=%d\n", benchsetup.Redact(env.URL), mode, n, warm, runtime.GOMAXPROCS(0))
	fmt.Printf("load average before: %s\n", benchsetup.LoadAverage())
	for _, q := range queries[:warm] {
		_, err := run(q)
		env.Check(err)
	}
	byKind := make([][]time.Duration, len(kinds))
	matches := make([][]int, len(kinds))
	var all []time.Duration
	start := time.Now()
	for _, q := range queries[warm:] {
		t := time.Now()
		total, err := run(q)
		d := time.Since(t)
		env.Check(err)
		byKind[q.kind] = append(byKind[q.kind], d)
		matches[q.kind] = append(matches[q.kind], total)
		all = append(all, d)
	}
	elapsed := time.Since(start)
	fmt.Printf("load average after:  %s\n\n", benchsetup.LoadAverage())
	fmt.Printf("%-22s %5s %9s %9s %9s %9s %9s\n", "kind", "n", "matches", "p50", "p95", "p99", "max")
	for i, k := range kinds {
		if len(byKind[i]) == 0 {
			continue
		}
		fmt.Printf("%-22s %5d %9d %9s %9s %9s %9s\n", k.name, len(byKind[i]), median(matches[i]),
			ms(pct(byKind[i], 50)), ms(pct(byKind[i], 95)), ms(pct(byKind[i], 99)), ms(pct(byKind[i], 100)))
	}
	fmt.Printf("%-22s %5d %9s %9s %9s %9s %9s\n", "ALL", len(all), "", ms(pct(all, 50)), ms(pct(all, 95)), ms(pct(all, 99)), ms(pct(all, 100)))
	fmt.Printf("throughput: %.0f searches/s, one at a time\n", float64(len(all))/elapsed.Seconds())

	if *others {
		// The history's other views and the parking board, 20 times each.
		month := time.Now().In(loc).AddDate(0, -2, 0)
		from, to := month.Format("2006-01-02"), month.AddDate(0, 1, -1).Format("2006-01-02")
		const surname, plate = "garcía", "1234"
		for _, o := range []struct {
			name string
			q    records.HistoryQuery
		}{
			{"no filter, page 1", records.HistoryQuery{Page: 1}},
			{"no filter, page 1000", records.HistoryQuery{Page: 1000}},
			{"status FINALIZADA", records.HistoryQuery{Status: "FINALIZADA", Page: 1}},
			{"entry in one month", records.HistoryQuery{DateFrom: from, DateTo: to, Page: 1}},
			{"booked in one month", records.HistoryQuery{BookedFrom: from, BookedTo: to, Page: 1}},
			{"entry in one week", records.HistoryQuery{DateFrom: from, DateTo: month.AddDate(0, 0, 6).Format("2006-01-02"), Page: 1}},
			{"surname + status", records.HistoryQuery{Search: surname, Status: "CANCELADA", Page: 1}},
			{"surname + entry month", records.HistoryQuery{Search: surname, DateFrom: from, DateTo: to, Page: 1}},
			{"surname + booked month", records.HistoryQuery{Search: surname, BookedFrom: from, BookedTo: to, Page: 1}},
			{"plate + entry month", records.HistoryQuery{Search: plate, DateFrom: from, DateTo: to, Page: 1}},
			{"surname, page 50", records.HistoryQuery{Search: surname, Page: 50}},
		} {
			var ds []time.Duration
			var total int
			for i := 0; i < 20; i++ {
				t := time.Now()
				p, err := svc.History(ctx, o.q)
				env.Check(err)
				ds = append(ds, time.Since(t))
				total = p.Total
			}
			fmt.Printf("%-28s %8d matches  p50 %8s  max %8s\n", o.name, total, ms(pct(ds, 50)), ms(pct(ds, 100)))
		}
		var ds []time.Duration
		for i := 0; i < 20; i++ {
			t := time.Now()
			_, err := svc.ParkingBoard(ctx, 1000)
			env.Check(err)
			ds = append(ds, time.Since(t))
		}
		fmt.Printf("%-28s %8s          p50 %8s  max %8s\n", "parking board", "", ms(pct(ds, 50)), ms(pct(ds, 100)))
	}

	if *explainSearch != "" {
		f := store.HistoryFilter{Search: *explainSearch, Status: reservation.Status(*explainStatus), Limit: records.HistoryPageSize}
		if *explainFrom != "" {
			_, f.EntryFrom, _, _ = localtime.ParseDay(*explainFrom, loc)
		}
		if *explainTo != "" {
			_, _, f.EntryTo, _ = localtime.ParseDay(*explainTo, loc)
		}
		plan, err := st.Records().ExplainHistory(ctx, f)
		env.Check(err)
		fmt.Printf("\n=== search %q status %q from %q to %q\n%s", *explainSearch, *explainStatus, *explainFrom, *explainTo, plan)
	}

	if *explain {
		seen := map[int]bool{}
		for _, q := range queries {
			if seen[q.kind] {
				continue
			}
			seen[q.kind] = true
			plan, err := st.Records().ExplainHistory(ctx, store.HistoryFilter{Search: q.search, Limit: records.HistoryPageSize, Offset: (q.page - 1) * records.HistoryPageSize})
			env.Check(err)
			fmt.Printf("\n=== %s: search %q, page %d\n%s", kinds[q.kind].name, q.search, q.page, plan)
		}
	}
}

// sample draws n searches from real vehicles and customers of the database.
func sample(ctx context.Context, st *store.Store, rng *rand.Rand, n, deepShare int) []query {
	var maxV, maxC int64
	check(st.DB().QueryRowContext(ctx, `SELECT MAX(id_vehicle) FROM vehicle`).Scan(&maxV))
	check(st.DB().QueryRowContext(ctx, `SELECT MAX(id_customer) FROM customer`).Scan(&maxC))
	total := 0
	for _, k := range kinds {
		total += k.weight
	}
	out := make([]query, 0, n)
	for len(out) < n {
		var plate, name string
		if err := st.DB().QueryRowContext(ctx, `SELECT license_plate FROM vehicle WHERE id_vehicle = $1`, 1+rng.Int64N(maxV)).Scan(&plate); err != nil {
			continue
		}
		if err := st.DB().QueryRowContext(ctx, `SELECT full_name FROM customer WHERE id_customer = $1`, 1+rng.Int64N(maxC)).Scan(&name); err != nil {
			continue
		}
		if len(strings.Fields(name)) < 3 || utf8.RuneCountInString(plate) < 7 {
			continue
		}
		w := rng.IntN(total)
		k := 0
		for ; w >= kinds[k].weight; k++ {
			w -= kinds[k].weight
		}
		q := query{kind: k, search: kinds[k].make(plate, name, rng), page: 1}
		if rng.IntN(100) < deepShare {
			q.page = 2 + rng.IntN(2)
		}
		out = append(out, q)
	}
	return out
}

// httpRunner starts the service on the same database and returns a runner that
// asks GET /admin/history as a logged-in administrator.
func httpRunner(ctx context.Context, env benchsetup.Env) (func(query) (int, error), string) {
	a := env.StartService(ctx)
	const email, password = "histbench@example.com", "histbench-password"
	if _, err := a.Accounts.EnsureAdmin(ctx, email, password); err != nil {
		check(err)
	}
	u, err := a.Accounts.Authenticate(ctx, email, password)
	check(err)
	token, err := a.Accounts.StartSession(ctx, u.ID)
	check(err)
	jar, _ := cookiejar.New(nil)
	base, _ := url.Parse(a.URL)
	jar.SetCookies(base, []*http.Cookie{{Name: "parking_session", Value: token, Path: "/"}})
	client := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	return func(q query) (int, error) {
		req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s/admin/history?search=%s&page=%d", a.URL, url.QueryEscape(q.search), q.page), nil)
		req.Header.Set("Accept", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return 0, fmt.Errorf("GET /admin/history?search=%q: %d %s", q.search, resp.StatusCode, body)
		}
		var total int
		if i := strings.Index(string(body), `"total_count":`); i >= 0 {
			fmt.Sscanf(string(body[i+len(`"total_count":`):]), "%d", &total)
		}
		return total, nil
	}, "HTTP GET /admin/history (session, handler, JSON)"
}

func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(min(i, len(s))-1, 0)]
}

func median(v []int) int {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }

func check(err error) { benchsetup.Check("histbench", err) }
