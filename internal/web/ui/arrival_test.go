package ui_test

import (
	"bytes"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// docs/manage-booking.md#arrival and docs/settings.md#arrival-instructions: the
// facility's name in the header and the legal pages (nothing public says a field is
// still pending), the arrival instructions in each language on the settings page
// and on the confirmation, the booking's QR code, each vehicle kind offered once.
func TestArrivalPages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		anon := apptest.Client(t)

		// A fresh install: the service's own name, no "pending".
		terms := webtest.Do(t, anon, "GET", e.A.URL+"/condiciones", nil)
		webtest.WantStatus(t, terms, http.StatusOK)
		webtest.WantAll(t, "fresh terms", terms.Body, `<span data-brand>Parking Aeropuerto</span>`, `<dd data-facility-name>Parking Aeropuerto</dd>`)
		for _, word := range []string{"pendiente", "Pendiente"} {
			if strings.Contains(terms.Body, word) {
				t.Errorf("the public terms say %q", word)
			}
		}

		status, body := e.JSON("PATCH", "/admin/settings", map[string]any{"name": "Parking Sur", "address": "Calle de la Terminal 4, Madrid",
			"phone": "+34 910 000 000", "arrival_es": "Siga la P2.\nDeje las llaves en recepción.", "arrival_en": "Follow signs to P2."})
		settings, _ := body["settings"].(map[string]any)
		if status != 200 || settings["arrival_es"] != "Siga la P2.\nDeje las llaves en recepción." || settings["arrival_en"] != "Follow signs to P2." || settings["arrival_de"] != "" {
			t.Fatalf("settings: %d %v", status, body)
		}
		if status, body := e.JSON("PATCH", "/admin/settings", map[string]any{"arrival_fr": strings.Repeat("x", 1001)}); status != 400 || !strings.Contains(body["message"].(string), "arrival_fr") {
			t.Errorf("too long: %d %v", status, body)
		}
		page := e.Page("/admin/settings")
		webtest.CheckPage(t, page)
		webtest.WantAll(t, "settings page", page.Body, `name="arrival_es"`, `name="arrival_en"`, `name="arrival_de"`, `name="arrival_fr"`, "Follow signs to P2.")

		// The booking page: the confirmation's arrival card, no internal number, each kind once.
		for _, c := range []struct{ lang, words string }{{"es", "Siga la P2."}, {"en", "Follow signs to P2."}, {"de", "Siga la P2."}} {
			res := webtest.Do(t, anon, "GET", e.A.URL+"/booking", nil, "Accept-Language: "+c.lang)
			webtest.WantStatus(t, res, http.StatusOK)
			if c.lang == "es" {
				webtest.CheckPage(t, res)
			}
			webtest.WantAll(t, "booking in "+c.lang, res.Body, `<span data-brand>Parking Sur</span>`, `data-arrival-name>Parking Sur<`, c.words,
				`data-arrival-address>Calle de la Terminal 4, Madrid`, `href="https://www.google.com/maps/search/?api=1&amp;query=Calle&#43;de&#43;la&#43;Terminal&#43;4%2C&#43;Madrid"`,
				`href="tel:&#43;34910000000"`, `data-done="exit"`, `data-done="service"`, `data-done-qr`)
			for _, gone := range []string{`data-done="id"`, "interno", `<option value="COCHE"`, `<option value="MOTO"`} {
				if strings.Contains(res.Body, gone) {
					t.Errorf("booking in %s shows %q", c.lang, gone)
				}
			}
		}

		// The QR code: a PNG for any well-formed reference, 404 otherwise.
		qr := webtest.Do(t, anon, "GET", e.A.URL+"/r/k7q2m9xd/qr.png", nil)
		webtest.WantStatus(t, qr, http.StatusOK)
		if ct := qr.Header.Get("Content-Type"); ct != "image/png" {
			t.Errorf("QR content type %q", ct)
		}
		if img, err := png.Decode(bytes.NewReader([]byte(qr.Body))); err != nil || img.Bounds().Dx() < 100 {
			t.Errorf("QR is not a PNG: %v", err)
		}
		webtest.WantStatus(t, webtest.Do(t, anon, "GET", e.A.URL+"/r/not-a-ref!/qr.png", nil), http.StatusNotFound)
	})
}
