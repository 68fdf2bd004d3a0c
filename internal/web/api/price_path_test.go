package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"parking/internal/catalog"
	"parking/internal/clock/clocktest"

	"parking/internal/apptest"
	"parking/internal/money"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// The quote is the price (docs/pricing.md#one-price-path): for each input, POST /api/pricing/dynamic
// and a booking with the same data through POST /api/reservations/public-new give
// the same total, or the same refusal. Extra 8 and main service TRANSFER (2) are
// retired first. Money is compared in cents, as the JSON carries two decimals.
func TestQuoteEqualsBookedTotal(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		ctx := context.Background()
		if _, err := a.CatalogOps.UpdateExtra(ctx, 8, catalog.ExtraInput{Active: ptrTo(false)}); err != nil {
			t.Fatal(err)
		}
		if _, err := a.CatalogOps.UpdateMainService(ctx, 2, catalog.MainServiceInput{Active: ptrTo(false)}); err != nil {
			t.Fatal(err)
		}
		entry := clocktest.D("2027-03-01") + "T10:00"
		cases := []struct {
			name, exit, vehicle string
			service             int
			extras              []int
			status              int
			want                string // total_price, or the refusal's message
		}{
			// The case: a repeated extra counts once (ECO 5 days SUV: 50 + 15).
			{"repeated extra", (clocktest.D("2027-03-05") + "T13:00"), "SUV", 1, []int{1, 1}, 200, "65.00"},
			{"repeats mixed", (clocktest.D("2027-03-02") + "T10:00"), "COCHE", 1, []int{1, 2, 1, 2, 2}, 200, "52.00"},
			{"unknown extra skipped", (clocktest.D("2027-03-02") + "T10:00"), "COCHE", 1, []int{99}, 200, "12.00"},
			{"unknown and known", (clocktest.D("2027-03-02") + "T10:00"), "COCHE", 1, []int{1, 99, 1}, 200, "27.00"},
			{"retired extra skipped", (clocktest.D("2027-03-02") + "T10:00"), "COCHE", 1, []int{8}, 200, "12.00"},
			{"retired and known", (clocktest.D("2027-03-02") + "T10:00"), "COCHE", 1, []int{8, 3, 8}, 200, "62.00"},
			{"inactive main service refused", (clocktest.D("2027-03-02") + "T10:00"), "COCHE", 2, nil, 400, "El servicio TRANSFER no está disponible."},
			{"unknown main service", (clocktest.D("2027-03-02") + "T10:00"), "COCHE", 9, nil, 0, "No existe tarifa para el servicio 9 y 1 días."},
			// Band edges of ECO (12, 8, 6, 5 €/day).
			{"1 day", (clocktest.D("2027-03-02") + "T10:00"), "COCHE", 1, nil, 200, "12.00"},
			{"3 days", (clocktest.D("2027-03-04") + "T10:00"), "COCHE", 1, nil, 200, "36.00"},
			{"4 days", (clocktest.D("2027-03-05") + "T10:00"), "COCHE", 1, nil, 200, "32.00"},
			{"10 days", (clocktest.D("2027-03-11") + "T10:00"), "COCHE", 1, nil, 200, "80.00"},
			{"11 days", (clocktest.D("2027-03-12") + "T10:00"), "COCHE", 1, nil, 200, "66.00"},
			{"15 days", (clocktest.D("2027-03-16") + "T10:00"), "COCHE", 1, nil, 200, "90.00"},
			{"16 days", (clocktest.D("2027-03-17") + "T10:00"), "COCHE", 1, nil, 200, "80.00"},
			// The 2-hour courtesy: exactly 2 hours over is not charged, a second more is.
			{"under a day", (clocktest.D("2027-03-01") + "T13:00"), "COCHE", 1, nil, 200, "12.00"},
			{"1 day + 2 h", (clocktest.D("2027-03-02") + "T12:00"), "COCHE", 1, nil, 200, "12.00"},
			{"1 day + 2 h + 1 s", (clocktest.D("2027-03-02") + "T12:00:01"), "COCHE", 1, nil, 200, "24.00"},
			{"3 days + 2 h", (clocktest.D("2027-03-04") + "T12:00"), "COCHE", 1, nil, 200, "36.00"},
			{"3 days + 2 h + 1 min: band 2", (clocktest.D("2027-03-04") + "T12:01"), "COCHE", 1, nil, 200, "32.00"},
			{"10 days + 2 h + 1 min: band 3", (clocktest.D("2027-03-11") + "T12:01"), "COCHE", 1, nil, 200, "66.00"},
			{"15 days + 2 h + 1 min: band 4", (clocktest.D("2027-03-16") + "T12:01"), "COCHE", 1, nil, 200, "80.00"},
			{"coefficient, band 2 and repeats", (clocktest.D("2027-03-04") + "T12:01"), "MOTO", 3, []int{1, 1, 8}, 200, "43.00"},
		}
		for i, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				body := map[string]any{"entry_date": entry, "exit_date": tc.exit, "vehicle_type": tc.vehicle,
					"id_main_service": tc.service, "additional_services": tc.extras}
				qs, quote := webtest.CustCall(t, nil, "POST", a.URL+"/api/pricing/dynamic", body)
				booking := map[string]any{"full_name": "Tabla", "phone": fmt.Sprintf("6990000%02d", i), "license_plate": fmt.Sprintf("T%02dABC", i)}
				for k, v := range body {
					booking[k] = v
				}
				bs, booked := webtest.CustCall(t, nil, "POST", a.URL+"/api/reservations/public-new", booking)
				if tc.status == 0 { // no rate: the spec's 500 for the quote, a 400 for the booking (docs/errors.md#refusals-by-operation)
					if qs != 500 || bs != 400 || quote["message"] != tc.want || booked["message"] != tc.want {
						t.Fatalf("quote %d %v, booking %d %v; want 500 and 400 with %q", qs, quote, bs, booked, tc.want)
					}
					return
				}
				if tc.status != 200 {
					if qs != tc.status || bs != tc.status || quote["message"] != tc.want || booked["message"] != tc.want {
						t.Fatalf("quote %d %v, booking %d %v; want both %d %q", qs, quote, bs, booked, tc.status, tc.want)
					}
					return
				}
				if qs != 200 || bs != http.StatusCreated {
					t.Fatalf("quote %d %v, booking %d %v", qs, quote, bs, booked)
				}
				q := fmt.Sprintf("%.2f", quote["total_price"])
				b := fmt.Sprintf("%.2f", booked["data"].(map[string]any)["total_price"])
				if q != b || q != tc.want {
					t.Errorf("quote %s, booked %s; want both %s", q, b, tc.want)
				}
			})
		}

		// Staff (an administrator session) may use the inactive main service: the
		// quote prices it as the walk-in charges it; a retired extra is skipped for
		// staff too. TRANSFER 3 days + 2 h + 1 min = 4 days × 11 € = 44 €, + 50 €.
		admin, _ := apptest.Admin(t, a)
		body := map[string]any{"entry_date": entry, "exit_date": (clocktest.D("2027-03-04") + "T12:01"), "vehicle_type": "COCHE", "id_main_service": 2, "additional_services": []int{3, 8, 3}}
		qs, quote := webtest.CustCall(t, admin, "POST", a.URL+"/api/pricing/dynamic", body)
		walkIn := map[string]any{"phone": "699111222", "license_plate": "W1ABC"}
		for k, v := range body {
			walkIn[k] = v
		}
		ws, created := webtest.CustCall(t, admin, "POST", a.URL+"/admin/reservations/new", walkIn)
		if qs != 200 || ws != http.StatusCreated {
			t.Fatalf("staff quote %d %v, walk-in %d %v", qs, quote, ws, created)
		}
		id := int64(created["data"].(map[string]any)["id_reservation"].(float64))
		r, err := a.Store.Reservations().Reservation(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if quote["total_price"] != 94.0 || r.TotalPrice != 9400 {
			t.Errorf("staff quote %v, walk-in stored %v; want both 94.00", quote["total_price"], r.TotalPrice)
		}
	})
}

// The edit forms quote with id_reservation: the answer is what saving the edit
// charges (docs/pricing.md#one-price-path), for staff (any reservation) and for the owner; anyone
// else gets the 403 of a foreign reservation.
func TestEditQuoteEqualsSavedTotal(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		ctx := context.Background()
		ana, _ := apptest.Customer(t, a, "ana@example.com", "600000001")
		bob, _ := apptest.Customer(t, a, "bob@example.com", "600000002")
		admin, _ := apptest.Admin(t, a)
		// ECO 5 days SUV (50 €) + Lavado básico 15 € + Lavado interior 25 € = 90 €.
		mine := webtest.CustBook(t, a, "600000001", "1111AAA", "SUV", (clocktest.D("2027-03-01") + "T10:00"), (clocktest.D("2027-03-06") + "T10:00"), 1, []int{1, 2})
		// Today's catalog changes: ECO 4–10 days 9 €, Lavado básico 20 €, Lavado
		// interior retired.
		if _, err := a.CatalogOps.UpdateRate(ctx, 2, catalog.RateInput{DailyPrice: ptrTo(money.Cents(900))}); err != nil {
			t.Fatal(err)
		}
		if _, err := a.CatalogOps.UpdateExtra(ctx, 1, catalog.ExtraInput{Price: ptrTo(money.Cents(2000))}); err != nil {
			t.Fatal(err)
		}
		if _, err := a.CatalogOps.UpdateExtra(ctx, 2, catalog.ExtraInput{Active: ptrTo(false)}); err != nil {
			t.Fatal(err)
		}
		quote := func(c *http.Client, exit string, extras []int) (int, map[string]any) {
			t.Helper()
			return webtest.CustCall(t, c, "POST", a.URL+"/api/pricing/dynamic", map[string]any{"id_reservation": mine,
				"entry_date": (clocktest.D("2027-03-01") + "T10:00"), "exit_date": exit, "vehicle_type": "SUV", "id_main_service": 1, "additional_services": extras})
		}

		// The customer's edit form still offers the retired booked extra, ticked, at its
		// booked price, so saving the form keeps it.
		page := webtest.Do(t, ana, "GET", a.URL+"/users/profile", nil, "Accept: text/html")
		if !strings.Contains(page.Body, `value="2" data-name="Lavado interior" checked>`) {
			t.Errorf("profile edit form lacks the booked retired extra:\n%.3000s", page.Body)
		}

		// Nothing that prices changed: the stored total, no breakdown.
		for _, c := range []*http.Client{admin, ana} {
			if st, q := quote(c, (clocktest.D("2027-03-06") + "T10:00"), []int{2, 1}); st != 200 || q["total_price"] != 90.0 || q["breakdown"] != nil {
				t.Errorf("unchanged edit quote: %d %v, want 90.00 without breakdown", st, q)
			}
		}
		// Someone else's reservation, or no session: 403.
		for _, c := range []*http.Client{bob, nil} {
			if st, q := quote(c, (clocktest.D("2027-03-07") + "T10:00"), nil); st != 403 || q["message"] != webtest.CustNotYours["message"] {
				t.Errorf("foreign edit quote: %d %v", st, q)
			}
		}
		if st, q := webtest.CustCall(t, admin, "POST", a.URL+"/api/pricing/dynamic", map[string]any{"id_reservation": 9999,
			"entry_date": (clocktest.D("2027-03-01") + "T10:00"), "exit_date": (clocktest.D("2027-03-02") + "T10:00"), "vehicle_type": "SUV", "id_main_service": 1}); st != 404 {
			t.Errorf("staff quote of a missing reservation: %d %v", st, q)
		}

		// The owner moves the exit to 6 days: 6 × 9 € × 1.25 = 67.50, the booked extras
		// at 15 € and 25 € (the retired one kept), Lavado integral new at 50 €.
		st, q := quote(ana, (clocktest.D("2027-03-07") + "T10:00"), []int{1, 2, 3, 3})
		if st != 200 || q["total_price"] != 157.5 {
			t.Fatalf("customer edit quote: %d %v, want 157.50", st, q)
		}
		st, body := webtest.CustCall(t, ana, "PUT", fmt.Sprintf("%s/users/profile/reservation/%d/edit", a.URL, mine), map[string]any{
			"exit_date": (clocktest.D("2027-03-07") + "T10:00"), "additional_services": []int{1, 2, 3, 3}})
		if st != 200 {
			t.Fatalf("customer edit: %d %v", st, body)
		}
		if r, _ := a.Store.Reservations().Reservation(ctx, mine); r.TotalPrice != 15750 {
			t.Errorf("saved %v after a quote of 157.50", r.TotalPrice)
		}

		// Staff change the type to MOTO (0.5): 6 × 9 € × 0.5 = 27 € + 90 € of booked extras.
		st, q = webtest.CustCall(t, admin, "POST", a.URL+"/api/pricing/dynamic", map[string]any{"id_reservation": mine,
			"entry_date": (clocktest.D("2027-03-01") + "T10:00"), "exit_date": (clocktest.D("2027-03-07") + "T10:00"), "vehicle_type": "MOTO", "id_main_service": 1, "additional_services": []int{1, 2, 3}})
		if st != 200 || q["total_price"] != 117.0 {
			t.Fatalf("staff edit quote: %d %v, want 117.00", st, q)
		}
		st, body = webtest.CustCall(t, admin, "POST", fmt.Sprintf("%s/admin/reservations/%d/edit", a.URL, mine), map[string]any{"vehicle_type": "MOTO"})
		if st != 200 || body["repriced"] != true {
			t.Fatalf("staff edit: %d %v", st, body)
		}
		if r, _ := a.Store.Reservations().Reservation(ctx, mine); r.TotalPrice != 11700 {
			t.Errorf("saved %v after a quote of 117.00", r.TotalPrice)
		}
	})
}

func ptrTo[T any](v T) *T { return &v }
