package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// setCapacity saves the facility's places and sellable places.
func setCapacity(t *testing.T, a *app.App, capacity, sellable int) {
	t.Helper()
	f, err := a.CatalogOps.Facility(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	f.Capacity, f.Sellable = capacity, sellable
	if _, err := a.CatalogOps.SaveFacility(context.Background(), f); err != nil {
		t.Fatal(err)
	}
}

// publicBookingBody is a public booking for customer n on day (YYYY-MM-DD, moved to
// the test clock) from 10:00 to 18:00 on the day after.
func publicBookingBody(n int, day string) string {
	return fmt.Sprintf(`{"full_name":"Cliente %d","phone":"6%08d","license_plate":"%04dBCD","vehicle_type":"TURISMO",`+
		`"entry_date":"%sT10:00","exit_date":"%sT18:00","id_main_service":1}`, n, 20000000+n, n,
		clocktest.D(day), clocktest.D(nextDay(day)))
}

func nextDay(day string) string {
	d, _ := time.Parse(time.DateOnly, day)
	return d.AddDate(0, 0, 1).Format(time.DateOnly)
}

func TestCapacityRefusalShapes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		setCapacity(t, e.A, 1, 0)
		pub := apptest.Client(t)
		status, body := call(t, pub, "POST", e.A.URL+"/api/reservations/public-new", publicBookingBody(1, "2026-12-01"))
		if status != http.StatusCreated {
			t.Fatalf("first booking: %d %s", status, body)
		}
		// The same days again: 409 naming both full days, nothing saved.
		status, body = call(t, pub, "POST", e.A.URL+"/api/reservations/public-new", publicBookingBody(2, "2026-12-01"))
		want := `{"full_days":["` + clocktest.D("2026-12-01") + `","` + clocktest.D("2026-12-02") + `"],"message":"No quedan plazas libres los días ` +
			clocktest.ES("01/12/2026") + ` y ` + clocktest.ES("02/12/2026") + `. Elija otras fechas.","success":false}`
		if status != http.StatusConflict || body != want {
			t.Fatalf("full booking: %d %s\nwant 409 %s", status, body, want)
		}
		if n := webtest.CountRows(t, e.A, `SELECT COUNT(*) FROM reservation`); n != 1 {
			t.Fatalf("%d reservations after a refusal, want 1", n)
		}

		// Staff walk-in: the same 409 unless override_capacity.
		fields := webtest.WalkInFields(3, clocktest.Day(11, 9, 0), 1, "")
		delete(fields, "cod_parking_spot")
		status, res := e.JSON("POST", "/admin/reservations/new", fields)
		if status != http.StatusConflict || fmt.Sprint(res["full_days"]) != "["+clocktest.D("2026-12-01")+" "+clocktest.D("2026-12-02")+"]" {
			t.Fatalf("walk-in on full days: %d %v", status, res)
		}
		fields["override_capacity"] = "on"
		status, res = e.JSON("POST", "/admin/reservations/new", fields)
		if status != http.StatusCreated {
			t.Fatalf("walk-in with override: %d %v", status, res)
		}
		if n := webtest.CountRows(t, e.A, `SELECT COUNT(*) FROM reservation WHERE capacity_override_at IS NOT NULL`); n != 1 {
			t.Fatalf("%d reservations recorded as overridden, want 1", n)
		}
		overridden := int64(res["data"].(map[string]any)["id_reservation"].(float64))
		status, res = e.JSON("GET", fmt.Sprintf("/admin/reservations/details/%d", overridden), nil)
		if at, _ := res["reservation"].(map[string]any)["capacity_override_at"].(string); status != 200 || !strings.HasPrefix(at, clocktest.D("2026-11-20")) {
			t.Fatalf("detail record of the overridden walk-in: %d capacity_override_at %v", status, res["reservation"])
		}

		// Staff update onto a full day: a browser gets 303 ?error=…, a JSON client 409;
		// with the checkbox ticked it goes through.
		id := e.WalkIn(webtest.WalkInFields(4, clocktest.Day(14, 9, 0), 1, ""))
		path := fmt.Sprintf("/admin/reservations/%d/edit", id)
		form := url.Values{"entry_date": {clocktest.D("2026-12-02") + "T09:00"}, "exit_date": {clocktest.D("2026-12-02") + "T20:00"}}
		status, loc, _ := e.Form(path, form)
		if status != http.StatusSeeOther || !strings.Contains(loc, "?error=") || !strings.Contains(loc, url.QueryEscape("No quedan plazas")) {
			t.Fatalf("browser update onto a full day: %d %s", status, loc)
		}
		status, res = e.JSON("POST", path, map[string]any{"entry_date": clocktest.D("2026-12-02") + "T09:00", "exit_date": clocktest.D("2026-12-02") + "T20:00"})
		if status != http.StatusConflict || fmt.Sprint(res["full_days"]) != "["+clocktest.D("2026-12-02")+"]" {
			t.Fatalf("JSON update onto a full day: %d %v", status, res)
		}
		form.Set("override_capacity", "on")
		if status, loc, _ := e.Form(path, form); status != http.StatusSeeOther || !strings.Contains(loc, "updated=true") {
			t.Fatalf("browser update with override: %d %s", status, loc)
		}
		// And a JSON client's override_capacity: true.
		id2 := e.WalkIn(webtest.WalkInFields(5, clocktest.Day(14, 9, 0), 1, ""))
		status, res = e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/edit", id2), map[string]any{
			"entry_date": clocktest.D("2026-12-02") + "T09:00", "exit_date": clocktest.D("2026-12-02") + "T18:00", "override_capacity": true})
		if status != http.StatusOK {
			t.Fatalf("JSON update with override_capacity true: %d %v", status, res)
		}
		if n := webtest.CountRows(t, e.A, `SELECT COUNT(*) FROM reservation WHERE capacity_override_at IS NOT NULL`); n != 3 {
			t.Fatalf("%d reservations recorded as overridden, want 3", n)
		}
		// Each override is in the audit trail, naming the full days.
		if n := webtest.CountRows(t, e.A, `SELECT COUNT(*) FROM audit_entry WHERE action = 'capacity_override'
			AND reservation_id IN ($1, $2, $3) AND changes LIKE '%full_days%'`, overridden, id, id2); n != 3 {
			t.Errorf("%d capacity overrides in the audit trail, want 3", n)
		}
	})
}

func TestAvailabilityAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		setCapacity(t, e.A, 30, 12)
		pub := apptest.Client(t)
		for n := range 11 { // 11 of 12 sellable on 2026-12-01 and -02: few (under 10 % free)
			if status, body := call(t, pub, "POST", e.A.URL+"/api/reservations/public-new", publicBookingBody(n, "2026-12-01")); status != http.StatusCreated {
				t.Fatalf("booking %d: %d %s", n, status, body)
			}
		}
		if status, body := call(t, pub, "POST", e.A.URL+"/api/reservations/public-new", publicBookingBody(20, "2026-12-02")); status != http.StatusCreated {
			t.Fatalf("booking: %d %s", status, body)
		}
		q := "/api/availability?from=" + clocktest.D("2026-11-30") + "&to=" + clocktest.D("2026-12-03")
		status, body := call(t, pub, "GET", e.A.URL+q, "")
		want := `{"from":"` + clocktest.D("2026-11-30") + `","to":"` + clocktest.D("2026-12-03") + `","days":[` +
			`{"date":"` + clocktest.D("2026-11-30") + `","status":"available"},` +
			`{"date":"` + clocktest.D("2026-12-01") + `","status":"few"},` +
			`{"date":"` + clocktest.D("2026-12-02") + `","status":"full"},` +
			`{"date":"` + clocktest.D("2026-12-03") + `","status":"available"}]}`
		if status != http.StatusOK || body != want {
			t.Fatalf("public availability: %d %s\nwant %s", status, body, want)
		}
		// An administrator also sees the counts.
		status, _, text := e.Send("GET", q, "", "", "Accept", "application/json")
		var got struct {
			Days []map[string]any `json:"days"`
		}
		if err := json.Unmarshal([]byte(text), &got); err != nil || status != http.StatusOK || len(got.Days) != 4 {
			t.Fatalf("admin availability: %d %s", status, text)
		}
		if d := got.Days[2]; d["capacity"] != 30.0 || d["sellable"] != 12.0 || d["booked"] != 12.0 || d["free"] != 0.0 || d["status"] != "full" {
			t.Errorf("admin day %v", d)
		}
		if d := got.Days[1]; d["booked"] != 11.0 || d["free"] != 1.0 {
			t.Errorf("admin day %v", d)
		}
		for _, bad := range []string{
			"", "?from=" + clocktest.D("2026-12-01"), "?from=2026-13-01&to=2026-12-01",
			"?from=" + clocktest.D("2026-12-05") + "&to=" + clocktest.D("2026-12-01"),
			"?from=2026-01-01&to=2026-04-03", // 93 days
		} {
			status, body := call(t, pub, "GET", e.A.URL+"/api/availability"+bad, "")
			if status != http.StatusBadRequest || !strings.Contains(body, `"success":false`) {
				t.Errorf("GET /api/availability%s: %d %s, want 400", bad, status, body)
			}
		}
		if status, body := call(t, pub, "GET", e.A.URL+"/api/availability?from=2026-01-01&to=2026-04-02", ""); status != http.StatusOK {
			t.Errorf("92 days: %d %s", status, body)
		}
	})
}

// 50 simultaneous public bookings through two instances of the service on one
// PostgreSQL database, for a day with 5 free places: exactly 5 × 201 and 45 × 409.
func TestLastPlacesThroughTwoInstances(t *testing.T) {
	cfg := apptest.Config(t, store.Postgres)
	if !strings.HasPrefix(cfg.DatabaseURL, "postgres") {
		t.Skip("PostgreSQL not configured (PARKING_TEST_POSTGRES_URL)")
	}
	a1 := apptest.StartWith(t, cfg)
	a2 := apptest.StartWith(t, cfg) // same database, same clock: a second instance
	setCapacity(t, a1, 5, 0)
	c := apptest.Client(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	start := make(chan struct{})
	for n := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			u := []*app.App{a1, a2}[n%2].URL + "/api/reservations/public-new"
			resp, err := c.Post(u, "application/json", strings.NewReader(publicBookingBody(100+n, "2026-12-10")))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			mu.Lock()
			statuses[resp.StatusCode]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	if statuses[201] != 5 || statuses[409] != 45 || len(statuses) != 2 {
		t.Fatalf("statuses %v, want 5 × 201 and 45 × 409", statuses)
	}
}

// Erasing a customer's data cancels their pending bookings (docs/manage-booking.md): their
// days are freed in the same transaction.
func TestErasureFreesTheDays(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		setCapacity(t, a, 1, 0)
		pub := apptest.Client(t)
		if status, body := call(t, pub, "POST", a.URL+"/api/reservations/public-new", publicBookingBody(1, "2026-12-01")); status != http.StatusCreated {
			t.Fatalf("booking: %d %s", status, body)
		}
		var customer int64
		if err := a.Store.DB().QueryRow(`SELECT id_customer FROM reservation`).Scan(&customer); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Privacy.Erase(context.Background(), customer, false); err != nil {
			t.Fatalf("erase: %v", err)
		}
		have, err := a.Store.Occupancy().OccupancyLedger(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		want, err := a.Store.Occupancy().RecountOccupancy(context.Background(), a.Config.Location)
		if err != nil {
			t.Fatal(err)
		}
		if len(have) != 0 || len(want) != 0 {
			t.Fatalf("after the erasure: ledger %v, recount %v; want both empty", have, want)
		}
		if status, body := call(t, pub, "POST", a.URL+"/api/reservations/public-new", publicBookingBody(2, "2026-12-01")); status != http.StatusCreated {
			t.Fatalf("booking the freed days: %d %s", status, body)
		}
	})
}

// Manage-my-booking (docs/manage-booking.md): an edit onto a full day is the same 409 with
// full_days, nothing saved; a cancel frees the days at once.
func TestManageBookingCapacity(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		setCapacity(t, a, 1, 0)
		b := bookOnline(t, a, "612345678", "ana@example.com", "CAPA1", 3, 1) // days 3 and 4
		bookOnline(t, a, "699888777", "", "CAPA2", 6, 1)                     // days 6 and 7: full
		tok := lookupToken(t, a, b.reference, "612345678")
		u := a.URL + "/api/bookings/" + b.reference
		entry := clocktest.Day(3, 10, 0)
		status, body := manageCall(t, "PUT", u, tok, map[string]any{"id_main_service": 1,
			"entry_date": entry.Format(time.RFC3339), "exit_date": entry.AddDate(0, 0, 3).Format(time.RFC3339)})
		if status != http.StatusConflict || fmt.Sprint(body["full_days"]) != "["+clocktest.D("2026-11-26")+"]" {
			t.Fatalf("manage edit onto a full day: %d %v", status, body)
		}
		if r := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation WHERE id_reservation = $1 AND exit_date < $2`, b.id, clocktest.Day(5, 0, 0)); r != 1 {
			t.Fatal("the refused edit changed the booking")
		}
		if status, body := manageCall(t, "POST", u+"/cancel", tok, nil); status != http.StatusOK {
			t.Fatalf("manage cancel: %d %v", status, body)
		}
		have, _ := a.Store.Occupancy().OccupancyLedger(context.Background())
		want, _ := a.Store.Occupancy().RecountOccupancy(context.Background(), a.Config.Location)
		if fmt.Sprint(have) != fmt.Sprint(want) || len(have) != 2 {
			t.Fatalf("after the cancel: ledger %v, recount %v (want the other booking's 2 days)", have, want)
		}
	})
}
