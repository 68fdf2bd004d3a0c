package ui_test

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// GET /admin/history: filters, search, local-day ranges on entry_date (dateFrom,
// dateTo: docs/admin.md#history) and on reservation_date (bookedFrom, bookedTo), and
// pagination of 15 newest first with the total count (docs/errors.md#json-on-web-routes).
func TestAdminHistory(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		// Booked in January for March: entering on 1 March (1–7) or 2 March (8–16);
		// number 8 at 00:30 on the 2nd, still the 1st in UTC.
		for n := 1; n <= 16; n++ {
			entry := time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid)
			switch {
			case n == 8:
				entry = time.Date(2027, 3, 2, 0, 30, 0, 0, webtest.Madrid)
			case n > 8:
				entry = time.Date(2027, 3, 2, 10, 0, 0, 0, webtest.Madrid)
			}
			b := webtest.WalkInFields(n, entry, 2, "")
			if n == 16 {
				b["full_name"] = `100% Ana_O'Brien \ "la Jefa"`
			}
			id := e.WalkIn(b)
			// Reservations made on 10, 11 and 12 January (local days), one hour apart;
			// number 5 late on the 10th, which is already the 10th's evening in UTC+1.
			made := time.Date(2027, 1, 10+(n-1)/5, 8+n, 0, 0, 0, webtest.Madrid)
			if n == 5 {
				made = time.Date(2027, 1, 10, 23, 30, 0, 0, webtest.Madrid)
			}
			e.Exec(`UPDATE reservation SET reservation_date = $1 WHERE id_reservation = $2`, store.Time(made), id)
		}
		history := func(q url.Values) (int, map[string]any) {
			t.Helper()
			return e.JSON("GET", "/admin/history?"+q.Encode(), nil)
		}
		ids := func(body map[string]any) []int {
			var out []int
			for _, r := range body["reservations"].([]any) {
				out = append(out, int(r.(map[string]any)["id_reservation"].(float64)))
			}
			return out
		}
		page := func(q url.Values, wantIDs []int, total, pageNo, pages int) {
			t.Helper()
			status, body := history(q)
			got := ids(body)
			if status != 200 || fmt.Sprint(got) != fmt.Sprint(wantIDs) || body["total_count"] != float64(total) ||
				body["page"] != float64(pageNo) || body["page_size"] != 15.0 || body["total_pages"] != float64(pages) {
				t.Errorf("%s: %d ids %v total %v page %v/%v size %v\nwant ids %v total %d page %d/%d",
					q.Encode(), status, got, body["total_count"], body["page"], body["total_pages"], body["page_size"], wantIDs, total, pageNo, pages)
			}
		}
		seq := func(from, to int) []int { // from down to to
			var out []int
			for i := from; i >= to; i-- {
				out = append(out, i)
			}
			return out
		}

		// 16 reservations: 15 on page 1 (newest first), 1 on page 2, none past the end.
		page(url.Values{}, seq(16, 2), 16, 1, 2)
		page(url.Values{"page": {"2"}}, []int{1}, 16, 2, 2)
		page(url.Values{"page": {"3"}}, nil, 16, 3, 2)
		page(url.Values{"page": {"999999999999"}}, nil, 16, 999999999999, 2)
		for _, bad := range []string{"0", "-3", "abc", "1.5", "", "99999999999999999999"} {
			page(url.Values{"page": {bad}}, seq(16, 2), 16, 1, 2)
		}
		// Exactly 15: one page, and page 2 is empty.
		e.JSON("PATCH", "/admin/reservations/1/cancel", nil)
		page(url.Values{"status": {"PENDIENTE"}}, seq(16, 2), 15, 1, 1)
		page(url.Values{"status": {"PENDIENTE"}, "page": {"2"}}, nil, 15, 2, 1)
		page(url.Values{"status": {"CANCELADA"}}, []int{1}, 1, 1, 1)
		page(url.Values{"status": {"EN CURSO"}}, nil, 0, 1, 0)

		// Search: partial, case-insensitive, name or plate; any input is data.
		page(url.Values{"search": {"cliente 1"}}, []int{15, 14, 13, 12, 11, 10, 1}, 7, 1, 1)
		page(url.Values{"search": {"CLIENTE 1"}}, []int{15, 14, 13, 12, 11, 10, 1}, 7, 1, 1)
		page(url.Values{"search": {"012b"}}, []int{12}, 1, 1, 1)
		page(url.Values{"search": {" 0007bcd "}}, []int{7}, 1, 1, 1)
		for _, s := range []string{"100%", "a_o", "o'brien", `\`, `"la jefa"`, "%", "_"} {
			page(url.Values{"search": {s}}, []int{16}, 1, 1, 1)
		}
		for _, s := range []string{"%%%", "a%o", "c_iente", `\\`, "'; DROP TABLE reservation; --", "nadie"} {
			page(url.Values{"search": {s}}, nil, 0, 1, 0)
		}

		// dateFrom/dateTo: local days of entry_date, both ends included. Booked in
		// January, they are found on their March days, not on the day they were booked.
		page(url.Values{"dateFrom": {"2027-03-02"}}, seq(16, 8), 9, 1, 1)
		page(url.Values{"dateTo": {"2027-03-01"}}, seq(7, 1), 7, 1, 1)
		page(url.Values{"dateFrom": {"2027-03-01"}, "dateTo": {"2027-03-01"}}, seq(7, 1), 7, 1, 1)
		page(url.Values{"dateFrom": {"2027-03-02"}, "dateTo": {"2027-03-02"}, "search": {"cliente 1"}, "status": {"PENDIENTE"}},
			[]int{15, 14, 13, 12, 11, 10}, 6, 1, 1)
		page(url.Values{"dateFrom": {"2027-01-12"}, "dateTo": {"2027-01-12"}}, nil, 0, 1, 0)
		page(url.Values{"dateFrom": {"2027-03-03"}}, nil, 0, 1, 0)
		// bookedFrom/bookedTo: local days of reservation_date.
		page(url.Values{"bookedFrom": {"2027-01-11"}}, seq(16, 6), 11, 1, 1)
		page(url.Values{"bookedTo": {"2027-01-10"}}, seq(5, 1), 5, 1, 1)
		page(url.Values{"bookedFrom": {"2027-01-11"}, "bookedTo": {"2027-01-11"}}, seq(10, 6), 5, 1, 1)
		page(url.Values{"bookedFrom": {"2027-01-11"}, "bookedTo": {"2027-01-12"}, "search": {"cliente 1"}, "status": {"PENDIENTE"}},
			[]int{15, 14, 13, 12, 11, 10}, 6, 1, 1)
		page(url.Values{"bookedFrom": {"2027-03-01"}, "bookedTo": {"2027-03-02"}}, nil, 0, 1, 0)
		// Both: entering on the 2nd, booked by the 11th.
		page(url.Values{"dateFrom": {"2027-03-02"}, "bookedTo": {"2027-01-11"}}, []int{10, 9, 8}, 3, 1, 1)

		// The list item carries the record and what the list shows.
		_, body := history(url.Values{"search": {"0012"}})
		item := body["reservations"].([]any)[0].(map[string]any)
		want := map[string]any{"id_reservation": 12.0, "status": "PENDIENTE", "customer_name": "Cliente 12", "phone": "+34600000012",
			"license_plate": "0012BCD", "brand": "Desconocida", "service_name": "ECO", "vehicle_type": "COCHE",
			"reservation_date": "2027-01-12T20:00:00+01:00", "entry_date": "2027-03-02T10:00:00+01:00", "total_price": 24.0}
		for k, v := range want {
			if item[k] != v {
				t.Errorf("item %s = %v, want %v", k, item[k], v)
			}
		}

		// Refusals name the problem.
		for _, tc := range []struct {
			q   url.Values
			msg string
		}{
			{url.Values{"status": {"PERDIDA"}}, `El estado "PERDIDA" no existe: use PENDIENTE, EN CURSO, FINALIZADA o CANCELADA.`},
			{url.Values{"dateFrom": {"11/01/2027"}}, `dateFrom no es una fecha válida ("11/01/2027"): use AAAA-MM-DD.`},
			{url.Values{"dateTo": {"2027-02-30"}}, `dateTo no es una fecha válida ("2027-02-30"): use AAAA-MM-DD.`},
			{url.Values{"dateFrom": {"2027-01-12"}, "dateTo": {"2027-01-11"}}, "dateFrom (2027-01-12) es posterior a dateTo (2027-01-11)."},
			{url.Values{"bookedFrom": {"ayer"}}, `bookedFrom no es una fecha válida ("ayer"): use AAAA-MM-DD.`},
			{url.Values{"bookedTo": {"2027-13-01"}}, `bookedTo no es una fecha válida ("2027-13-01"): use AAAA-MM-DD.`},
			{url.Values{"bookedFrom": {"2027-01-12"}, "bookedTo": {"2027-01-11"}}, "bookedFrom (2027-01-12) es posterior a bookedTo (2027-01-11)."},
			{url.Values{"search": {fmt.Sprintf("%0101d", 0)}}, "El campo search admite como máximo 100 caracteres."},
		} {
			status, body := history(tc.q)
			webtest.WantMessage(t, status, body, 400, tc.msg)
		}
	})
}
