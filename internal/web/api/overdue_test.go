package api_test

import (
	"bufio"
	"fmt"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// Overdue cars (docs/board.md#overdue): EN CURSO whose exit has passed. Today's
// board lists them by exit date with their count (no other day does); the cached
// board does not outlive the next exit: moving the clock past it shows the car
// without any write; the parking board marks their spots, its page too, and the
// metric counts them.
func TestDailyBoardOverdue(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg, clk := apptest.ConfigClock(t, d)
		e := webtest.AdminEnvWith(t, cfg)
		a := e.A
		tok := adminToken(t, a)
		at := func(days, hour int) string { return clocktest.Day(days, hour, 0).Format(time.RFC3339) }
		clk.Set(clocktest.Day(0, 10, 0))
		inCourse := func(id int64, spot string) {
			webtest.Exec(t, a, `UPDATE reservation SET status = 'EN CURSO', cod_parking_spot = $2 WHERE id_reservation = $1`, id, spot)
		}
		late := webtest.SeedStay(t, a, "OVER1", at(-3, 9), at(0, 8)) // passed this morning
		inCourse(late, "O-1")
		later := webtest.SeedStay(t, a, "OVER2", at(-2, 9), at(-1, 18)) // passed yesterday: first
		inCourse(later, "O-2")
		soon := webtest.SeedStay(t, a, "SOON3", at(-1, 9), at(0, 11)) // passes at 11:00
		inCourse(soon, "O-3")
		open := webtest.SeedStay(t, a, "OPEN4", at(-1, 9), "") // no exit: never overdue
		inCourse(open, "O-4")
		webtest.SeedStay(t, a, "PEND5", at(-2, 9), at(0, 7)) // PENDIENTE: not in the car park
		paid := webtest.SeedStay(t, a, "PAID6", at(-3, 9), at(-1, 9))
		webtest.Exec(t, a, `UPDATE reservation SET status = 'FINALIZADA', is_paid = true, payment_method = 'EFECTIVO', cod_parking_spot = 'O-6' WHERE id_reservation = $1`, paid)
		today := clocktest.Day(0, 12, 0).Format("2006-01-02")

		want := func(date string, overdue []int64) {
			t.Helper()
			b, _ := boardOf(t, a, tok, date)
			if got := ids(t, b["overdue"]); !sameIDs(got, overdue) {
				t.Errorf("date %q: overdue = %v, want %v", date, got, overdue)
			}
			if n := b["stats"].(map[string]any)["total_overdue"]; n != float64(len(overdue)) {
				t.Errorf("date %q: total_overdue = %v, want %d", date, n, len(overdue))
			}
		}
		want("", []int64{later, late})
		want(today, []int64{later, late})
		want(clocktest.Day(1, 12, 0).Format("2006-01-02"), nil)
		want(clocktest.Day(-1, 12, 0).Format("2006-01-02"), nil)
		b, _ := boardOf(t, a, tok, "")
		if item := b["overdue"].([]any)[0].(map[string]any); len(item) != 10 || item["status"] != "EN CURSO" || item["license_plate"] != "OVER2" {
			t.Errorf("overdue item: %v, want the board's item shape", item)
		}

		spots := func() map[string]any {
			t.Helper()
			st, body := e.JSON("GET", "/admin/parking", nil)
			if st != 200 {
				t.Fatalf("parking board: %d %v", st, body)
			}
			out := map[string]any{}
			for _, sp := range body["spots"].([]any) {
				m := sp.(map[string]any)
				out[m["code"].(string)] = m["reservation"].(map[string]any)["overdue"]
			}
			return out
		}
		if got := fmt.Sprint(spots()); got != "map[O-1:true O-2:true O-3:false O-4:false]" {
			t.Errorf("parking board marks: %s", got)
		}
		if n := overdueMetric(t, a.URL); n != 2 {
			t.Errorf("parking_stays_overdue = %v, want 2", n)
		}

		// The clock passes 11:00: the third car is overdue, with no write (the
		// board version is the same, the cached body must not be served).
		clk.Set(clocktest.Day(0, 11, 0).Add(time.Second))
		want("", []int64{later, late, soon})
		want(today, []int64{later, late, soon})
		if got := fmt.Sprint(spots()); got != "map[O-1:true O-2:true O-3:true O-4:false]" {
			t.Errorf("parking board marks after 11:00: %s", got)
		}
		page := e.Page("/admin/parking")
		if n := strings.Count(page.Body, "data-overdue"); n != 3 || !strings.Contains(page.Body, "Salida vencida") {
			t.Errorf("parking page marks %d spots, want 3", n)
		}
		if n := overdueMetric(t, a.URL); n != 3 {
			t.Errorf("parking_stays_overdue = %v, want 3", n)
		}

		// A car checked out leaves the list at once (the board version moves).
		webtest.Exec(t, a, `UPDATE reservation SET status = 'FINALIZADA', is_paid = true, payment_method = 'TARJETA' WHERE id_reservation = $1`, later)
		want("", []int64{late, soon})

		// Tomorrow, today's date is no longer today: its overdue list is empty.
		clk.Set(clocktest.Day(1, 9, 0))
		tok = issueToken(t, apptest.Client(t), a.URL, "board-admin@example.com", "admin-password")["token"].(string) // the old one expired
		want(today, nil)
		want("", []int64{late, soon})
	})
}

// overdueMetric scrapes parking_stays_overdue.
func overdueMetric(t *testing.T, base string) float64 {
	t.Helper()
	res := webtest.Do(t, apptest.Client(t), "GET", base+"/metrics", nil)
	webtest.WantStatus(t, res, 200)
	sc := bufio.NewScanner(strings.NewReader(res.Body))
	for sc.Scan() {
		var v float64
		if _, err := fmt.Sscanf(sc.Text(), "parking_stays_overdue %g", &v); err == nil {
			return v
		}
	}
	t.Fatalf("no parking_stays_overdue in\n%s", res.Body)
	return 0
}
