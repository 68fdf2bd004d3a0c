package ui_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// reportStay is what the test knows of one of its reservations' receipts, read from
// the receipt route (not from the report's queries).
type reportReceipt struct{ total, base, vat float64 }

func receiptOf(t *testing.T, e *webtest.AdminEnv, id int64) reportReceipt {
	t.Helper()
	st, b := e.JSON("GET", fmt.Sprintf("/admin/reservations/details/%d/receipt", id), nil)
	if st != 200 {
		t.Fatalf("receipt %d: %d %v", id, st, b)
	}
	return reportReceipt{b["total"].(float64), b["base"].(float64), b["vat"].(float64)}
}

// cents rounds euros read from JSON to cents, so sums compare exactly.
func cents(v float64) int64 {
	if v < 0 {
		return int64(v*100 - 0.5)
	}
	return int64(v*100 + 0.5)
}

// The report and the invoice book over a month with four bookings of the test
// (docs/reports.md): a counter walk-in finalized and then turned into a full invoice
// (F2 replaced by F3: the sale counted once), a public booking collected three days
// late (an overstay, repriced), a cancelled booking and a no-show. Each figure is
// asserted exactly, on both databases.
func TestReportFigures(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg, clk := apptest.ConfigClock(t, d)
		loc := cfg.Location
		at := func(day, hm string) time.Time {
			v, err := time.ParseInLocation("2006-01-02 15:04", day+" "+hm, loc)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		clk.Set(at("2027-03-01", "09:00"))
		a := apptest.StartWith(t, cfg)
		c, admin := apptest.Admin(t, a)
		e := &webtest.AdminEnv{T: t, A: a, C: c}
		facility(t, e, "21")
		if st, b := e.JSON("PATCH", "/admin/settings", map[string]any{"capacity": 50}); st != 200 {
			t.Fatalf("capacity: %d %v", st, b)
		}
		move := func(v time.Time) {
			clk.Set(v)
			e.C = apptest.LoggedIn(t, a, admin)
		}
		// A: at the counter, 2–5 March, service 1.
		walk := webtest.WalkInFields(1, at("2027-03-02", "10:00"), 3, "A-1")
		idA := e.WalkIn(walk)
		// B, C, D: booked online at the same moment.
		idB := webtest.CustBook(t, a, "611000201", "2001BBB", "COCHE", "2027-03-03T08:00", "2027-03-04T08:00", 2, nil)
		idC := webtest.CustBook(t, a, "611000202", "2002CCC", "COCHE", "2027-03-10T10:00", "2027-03-12T10:00", 1, nil)
		webtest.CustBook(t, a, "611000203", "2003DDD", "COCHE", "2027-03-04T12:00", "2027-03-07T12:00", 1, nil)
		if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/cancel", idC), nil); st != 200 {
			t.Fatalf("cancel: %d %v", st, b)
		}
		move(at("2027-03-02", "10:00"))
		e.AddPhotos(idA, 5)
		if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", idA), nil); st != 200 {
			t.Fatalf("start A: %d %v", st, b)
		}
		move(at("2027-03-03", "08:00"))
		if st, b := e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/edit", idB), map[string]any{"cod_parking_spot": "B-1"}); st != 200 {
			t.Fatalf("spot B: %d %v", st, b)
		}
		e.AddPhotos(idB, 5)
		if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", idB), nil); st != 200 {
			t.Fatalf("start B: %d %v", st, b)
		}
		move(at("2027-03-05", "10:00"))
		finalize(t, e, idA, "TARJETA")
		move(at("2027-03-06", "09:00"))
		finalize(t, e, idB, "EFECTIVO") // two days and one hour late
		move(at("2027-03-06", "12:00"))
		if st, b := e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/invoice", idA),
			map[string]any{"tax_id": "12345678Z", "address": "Calle Mayor 1, Madrid", "name": "Ana Cliente"}); st != 202 {
			t.Fatalf("full invoice: %d %v", st, b)
		}
		move(at("2027-03-08", "12:00"))
		rA, rB := receiptOf(t, e, idA), receiptOf(t, e, idB) // A's is now the F3, same amounts
		if rB.total <= 0 || rA.total <= 0 {
			t.Fatalf("receipts: %v %v", rA, rB)
		}

		st, rep := e.JSON("GET", "/admin/reports?from=2027-03-01&to=2027-03-31", nil)
		if st != 200 {
			t.Fatalf("report: %d %v", st, rep)
		}
		rev := rep["revenue"].(map[string]any)
		wantTotal, wantBase, wantVAT := cents(rA.total)+cents(rB.total), cents(rA.base)+cents(rB.base), cents(rA.vat)+cents(rB.vat)
		if cents(rev["total"].(float64)) != wantTotal || cents(rev["base"].(float64)) != wantBase || cents(rev["vat"].(float64)) != wantVAT ||
			rev["receipts"] != 2.0 || wantBase+wantVAT != wantTotal {
			t.Errorf("revenue %v, want total %d base %d vat %d, 2 receipts", rev, wantTotal, wantBase, wantVAT)
		}
		days := rev["by_day"].([]any)
		if len(days) != 31 {
			t.Fatalf("by_day: %d days", len(days))
		}
		for i, x := range days {
			day := x.(map[string]any)
			want := int64(0)
			switch i + 1 {
			case 5:
				want = cents(rA.total)
			case 6:
				want = cents(rB.total)
			}
			if day["date"] != fmt.Sprintf("2027-03-%02d", i+1) || cents(day["total"].(float64)) != want {
				t.Errorf("by_day[%d] = %v, want %d cents", i, day, want)
			}
		}
		svc := rev["by_service"].([]any)
		if len(svc) != 2 || svc[0].(map[string]any)["id_main_service"] != 1.0 || cents(svc[0].(map[string]any)["total"].(float64)) != cents(rA.total) ||
			svc[1].(map[string]any)["id_main_service"] != 2.0 || cents(svc[1].(map[string]any)["total"].(float64)) != cents(rB.total) ||
			svc[0].(map[string]any)["name"] == "" {
			t.Errorf("by_service %v", svc)
		}
		want := fmt.Sprint([]any{map[string]any{"channel": "counter", "total": rA.total, "bookings": 1.0},
			map[string]any{"channel": "web", "total": rB.total, "bookings": 1.0}})
		if got := fmt.Sprint(rev["by_channel"]); got != want {
			t.Errorf("by_channel %s, want %s", got, want)
		}
		// Occupancy: A finished 2–5, B finished 3–6 (checked out late), D pending 4–7
		// (the capacity rules count it), C cancelled; today (8th) and after: nothing.
		booked := map[int]float64{2: 1, 3: 2, 4: 3, 5: 3, 6: 2, 7: 1}
		for i, x := range rep["occupancy"].([]any) {
			o := x.(map[string]any)
			if o["date"] != fmt.Sprintf("2027-03-%02d", i+1) || o["capacity"] != 50.0 || o["booked"] != booked[i+1] {
				t.Errorf("occupancy[%d] = %v, want booked %v of 50", i, o, booked[i+1])
			}
		}
		// Lead times 25 h, 47 h, 217 h, 75 h: 91 h = 3.79 days; stays 3 d and 3 d 1 h:
		// 3.02 days.
		want = fmt.Sprint(map[string]any{"created": 4.0, "cancelled": 1.0, "no_shows": 1.0, "average_stay_days": 3.02, "average_lead_days": 3.79})
		if got := fmt.Sprint(rep["bookings"]); got != want {
			t.Errorf("bookings %s, want %s", got, want)
		}

		// The invoice book: F2 of A, F2 of B, then the F3 replacing A's, in the series'
		// order; its sales total is the revenue.
		st, book := e.JSON("GET", "/admin/reports/invoices?from=2027-03-01&to=2027-03-31", nil)
		if st != 200 {
			t.Fatalf("book: %d %v", st, book)
		}
		inv := book["invoices"].([]any)
		if len(inv) != 3 {
			t.Fatalf("book rows: %v", inv)
		}
		kinds := ""
		for _, x := range inv {
			kinds += x.(map[string]any)["kind"].(string) + " "
		}
		f3 := inv[2].(map[string]any)
		if kinds != "F2 F2 F3 " || f3["tax_id"] != "12345678Z" || f3["name"] != "Ana Cliente" || f3["replaces"] != inv[0].(map[string]any)["number"] ||
			inv[0].(map[string]any)["tax_id"] != nil || f3["vat_rate"] != 21.0 || cents(f3["total"].(float64)) != cents(rA.total) {
			t.Errorf("book rows: %v", inv)
		}
		tot := book["totals"].(map[string]any)
		if cents(tot["total"].(float64)) != wantTotal || cents(tot["base"].(float64)) != wantBase || cents(tot["vat"].(float64)) != wantVAT {
			t.Errorf("book totals %v, want the revenue's", tot)
		}
		st, _, body := e.Send("GET", "/admin/reports/invoices?from=2027-03-01&to=2027-03-31&format=csv", "", "")
		if lines := strings.Split(strings.TrimSpace(body), "\r\n"); st != 200 || len(lines) != 4 || !strings.Contains(lines[3], ";F3;") ||
			!strings.Contains(lines[3], "12345678Z;Ana Cliente;") {
			t.Errorf("book CSV: %d %q", st, body)
		}

		// The downloads: one CSV row per day; the workbook's sheets.
		st, _, body = e.Send("GET", "/admin/reports?from=2027-03-01&to=2027-03-31&format=csv", "", "")
		lines := strings.Split(strings.TrimSpace(body), "\r\n")
		total5 := strings.Replace(fmt.Sprintf("%.2f", rA.total), ".", ",", 1)
		if st != 200 || len(lines) != 32 || !strings.HasPrefix(lines[5], "05/03/2027;1;") || !strings.Contains(lines[5], ";"+total5+";50;3;0;0;0") {
			t.Errorf("report CSV: %d %q", st, lines)
		}
		st, _, body = e.Send("GET", "/admin/reports?from=2027-03-01&to=2027-03-31&format=xlsx", "", "")
		f, err := excelize.OpenReader(bytes.NewReader([]byte(body)))
		if st != 200 || err != nil {
			t.Fatalf("workbook: %d %v", st, err)
		}
		if v, _ := f.GetCellValue("Días", "E6"); v != fmt.Sprint(rA.total) && cents(parseFloat(v)) != cents(rA.total) {
			t.Errorf("workbook day 5 total %q, want %v", v, rA.total)
		}
		if sheets := f.GetSheetList(); fmt.Sprint(sheets) != "[Resumen Días Servicios Canales]" {
			t.Errorf("sheets %v", sheets)
		}

		// The page: the figures and a chart with its table, in the staff's navigation.
		page := e.Page("/admin/reports?from=2027-03-01&to=2027-03-31")
		if page.StatusCode != 200 {
			t.Errorf("page: %d %s", page.StatusCode, page.Body)
		}
		webtest.WantAll(t, "report page", page.Body, `href="/admin/reports"`, `data-figure="no_shows">1<`, `data-chart="occupancy-day"`,
			`data-chart-table="revenue-channel"`, "Mostrador")
	})
}

func parseFloat(s string) float64 {
	var v float64
	_, _ = fmt.Sscan(s, &v)
	return v
}

// Bad ranges are refused naming the field, in the request's language; a customer and
// an anonymous visitor never see a report.
func TestReportRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		for q, field := range map[string]string{
			"from=2027-03-10&to=2027-03-01": "from", "from=2025-01-01&to=2027-01-02": "to", "from=2027-02-30": "from",
			"to=mañana": "to", "from=2027-13-01&to=2027-12-01": "from",
		} {
			for _, path := range []string{"/admin/reports?", "/admin/reports/invoices?"} {
				st, b := e.JSON("GET", path+q, nil)
				if msg, _ := b["message"].(string); st != 400 || !strings.Contains(msg, field) {
					t.Errorf("%s%s: %d %v, want 400 naming %s", path, q, st, b, field)
				}
			}
			st, _, body := e.Send("GET", "/admin/reports?"+q+"&format=csv", "", "")
			if st != 400 || strings.Contains(body, "Fecha;") {
				t.Errorf("CSV %s: %d %q", q, st, body)
			}
		}
		st, _, body := e.Send("GET", "/admin/reports?from=2027-03-10&to=2027-03-01", "", "", "Accept-Language", "en")
		if st != 400 || !strings.Contains(body, "is later than") {
			t.Errorf("page in English: %d", st)
		}
		// 731 days is the most.
		if st, b := e.JSON("GET", "/admin/reports?from=2025-01-01&to=2026-12-31", nil); st != 200 || len(b["occupancy"].([]any)) != 730 {
			t.Errorf("730 days: %d", st)
		}
		cust, _ := apptest.Customer(t, e.A, "cliente@example.com", "611000999")
		for _, c := range []*http.Client{cust, apptest.Client(t)} {
			for _, path := range []string{"/admin/reports", "/admin/reports/invoices", "/admin/reports?format=csv"} {
				r := webtest.Do(t, c, "GET", e.A.URL+path, nil, "Accept: application/json")
				if r.StatusCode == 200 || strings.Contains(r.Body, "revenue") || strings.Contains(r.Body, "invoices") {
					t.Errorf("%s without staff: %d %s", path, r.StatusCode, r.Body)
				}
			}
		}
	})
}
