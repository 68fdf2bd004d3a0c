package ui_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// docs/reservations.md#check-in-on-a-phone: the detail page's start opens a dialog
// that asks for the spot (free ones suggested), takes the photos and the hand-over,
// and the start takes the spot with it in one transaction: a taken spot is a 409, a
// start refused for want of photos keeps no spot, and the rules of the start stand.
func TestCheckInDialog(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		day := func(n int) time.Time { return time.Date(2027, 3, n, 10, 0, 0, 0, webtest.Madrid) }
		e.WalkIn(webtest.WalkInFields(1, day(1), 3, "A-1"))    // holds A-1 over [1, 4)
		id := e.WalkIn(webtest.WalkInFields(2, day(2), 1, "")) // the car arriving, no spot yet
		e.WalkIn(webtest.WalkInFields(3, day(20), 2, "B-7"))   // B-7 is free on the 2nd
		open := webtest.WalkInFields(4, day(2).Add(-time.Hour), 1, "C-3")
		delete(open, "exit_date")
		e.WalkIn(open) // an open exit: C-3 is held for good

		page := e.Page(fmt.Sprintf("/admin/reservations/details/%d", id))
		webtest.CheckPage(t, page)
		webtest.WantAll(t, "detail page", page.Body, `data-spot-pick="B-7"`, `capture="environment"`, `name="cod_parking_spot"`,
			`data-start-photos`, `name="mileage_km"`, `name="fuel_percent"`, `name="damage_notes"`, `name="keys_handed_over"`)
		for _, held := range []string{`data-spot-pick="A-1"`, `data-spot-pick="C-3"`} {
			if strings.Contains(page.Body, held) {
				t.Errorf("a held spot is suggested: %s", held)
			}
		}
		if strings.Contains(page.Body, `data-action="start" disabled`) {
			t.Error("the start button waits for a spot typed elsewhere")
		}

		// The start's rules in their order: the photos first, then the spot.
		start := fmt.Sprintf("/admin/reservations/%d/start", id)
		status, body := e.JSON("PATCH", start, map[string]any{"cod_parking_spot": "b-7"})
		if status != 400 || !strings.Contains(fmt.Sprint(body["message"]), "fotos") {
			t.Errorf("no photos: %d %v", status, body)
		}
		e.AddPhotos(id, 5)
		status, body = e.JSON("PATCH", start, map[string]any{"cod_parking_spot": " a-1 "})
		if status != 409 || !strings.Contains(fmt.Sprint(body["message"]), "A-1") {
			t.Errorf("a taken spot: %d %v", status, body)
		}
		status, body = e.JSON("PATCH", start, nil)
		if status != 400 || !strings.Contains(fmt.Sprint(body["message"]), "plaza") {
			t.Errorf("no spot at all: %d %v", status, body)
		}
		if r := e.Stored(id); r.Spot != nil || r.Status != "PENDIENTE" {
			t.Errorf("a refused start saved something: %+v", r)
		}

		status, body = e.JSON("PATCH", start, map[string]any{"cod_parking_spot": "b-7", "keys_handed_over": true,
			"mileage_km": "12345", "fuel_percent": "50", "damage_notes": "Rayón puerta"})
		res, _ := body["reservation"].(map[string]any)
		if status != 200 || res["status"] != "EN CURSO" || res["cod_parking_spot"] != "B-7" {
			t.Fatalf("start with the spot: %d %v", status, body)
		}
		if r := e.Stored(id); r.Spot == nil || *r.Spot != "B-7" || !r.KeysHandedOver {
			t.Errorf("stored after the start: %+v", r)
		}
	})
}
