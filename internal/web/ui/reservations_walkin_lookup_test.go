package ui_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// docs/reservations.md#walk-in-lookup: the walk-in form fills a known customer's
// name and vehicle from a phone or a plate in any form, through a staff-only route;
// nobody else gets an answer from it.
func TestWalkInKnownCustomer(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		f := webtest.WalkInFields(7, time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid), 2, "")
		f["brand"], f["model"], f["color"], f["vehicle_type"] = "Seat", "Ibiza", "Rojo", "SUV"
		e.WalkIn(f)

		for _, q := range []string{"phone=600%20000%20007", "phone=%2B34600000007", "plate=0007-bcd", "plate=0007%20BCD"} {
			status, body := e.JSON("GET", "/admin/customers/known?"+q, nil)
			c, _ := body["customer"].(map[string]any)
			v, _ := body["vehicle"].(map[string]any)
			if status != 200 || body["found"] != true || c["full_name"] != "Cliente 7" || c["phone"] != "+34600000007" ||
				v["license_plate"] != "0007BCD" || v["brand"] != "Seat" || v["model"] != "Ibiza" || v["vehicle_type"] != "SUV" {
				t.Errorf("%s: %d %v", q, status, body)
			}
		}
		for _, q := range []string{"phone=611111111", "plate=9999ZZZ", "phone=12"} {
			status, body := e.JSON("GET", "/admin/customers/known?"+q, nil)
			if status != 200 || body["found"] != false || body["customer"] != nil || body["vehicle"] != nil {
				t.Errorf("%s: %d %v", q, status, body)
			}
		}
		if status, body := e.JSON("GET", "/admin/customers/known", nil); status != 400 {
			t.Errorf("neither phone nor plate: %d %v", status, body)
		}

		// Anonymous: no answer about anybody.
		res := webtest.Do(t, apptest.Client(t), "GET", e.A.URL+"/admin/customers/known?phone=600000007", nil, "Accept: application/json")
		if res.StatusCode == http.StatusOK || strings.Contains(res.Body, "Cliente 7") {
			t.Errorf("anonymous lookup: %d %s", res.StatusCode, res.Body)
		}
	})
}
