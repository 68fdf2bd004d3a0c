package api_test

import (
	"net/http"
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// docs/languages.md#the-bookings-language: a booking stores its language field,
// else the best match of Accept-Language, else Spanish; its booking_confirmation
// carries it as idioma; an unknown language is a 400 naming the field and saves
// nothing.
func TestPublicBookingLanguage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		cl := apptest.Client(t)
		url := a.URL + "/api/reservations/public-new"
		stored := func(phone string) (lang, payload string) {
			t.Helper()
			if err := a.Store.DB().QueryRow(`SELECT r.language, n.payload FROM reservation r
				JOIN notification n ON n.id_reservation = r.id_reservation AND n.type = 'booking_confirmation'
				WHERE r.contact_phone = $1`, phone).Scan(&lang, &payload); err != nil {
				t.Fatalf("reservation of %s: %v", phone, err)
			}
			return lang, payload
		}

		en := idemBooking("600700001")
		en["language"] = "en"
		bookingID(t, webtest.PostJSON(t, cl, url, en, "Accept-Language: de"))
		if lang, p := stored("+34600700001"); lang != "en" || !strings.Contains(p, `"idioma":"en"`) {
			t.Errorf("language field en: stored %q, payload %s", lang, p)
		}

		bookingID(t, webtest.PostJSON(t, cl, url, idemBooking("600700002"), "Accept-Language: de-AT,de;q=0.9,en;q=0.8"))
		if lang, p := stored("+34600700002"); lang != "de" || !strings.Contains(p, `"idioma":"de"`) {
			t.Errorf("Accept-Language de: stored %q, payload %s", lang, p)
		}

		bookingID(t, webtest.PostJSON(t, cl, url, idemBooking("600700003"), "Accept-Language: ja"))
		if lang, p := stored("+34600700003"); lang != "es" || !strings.Contains(p, `"idioma":"es"`) {
			t.Errorf("no language: stored %q, payload %s", lang, p)
		}

		// The booking page's script posts with the browser's cookies: the page's
		// language (the lang cookie) beats Accept-Language.
		bookingID(t, webtest.PostJSON(t, cl, url, idemBooking("600700005"), "Accept-Language: de", "Cookie: lang=fr"))
		if lang, p := stored("+34600700005"); lang != "fr" || !strings.Contains(p, `"idioma":"fr"`) {
			t.Errorf("cookie fr: stored %q, payload %s", lang, p)
		}

		before := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation`)
		bad := idemBooking("600700004")
		bad["language"] = "it"
		res := webtest.PostJSON(t, cl, url, bad)
		webtest.WantStatus(t, res, http.StatusBadRequest)
		if b := webtest.Decode(t, res); b["success"] != false || !strings.Contains(b["message"].(string), "language") {
			t.Errorf("unknown language answered %v", b)
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation`); n != before {
			t.Errorf("%d reservations after a refused language, want %d", n, before)
		}
	})
}
