package ui_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// docs/languages.md#messages-as-codes: the operations' refusals (booking, records,
// ops) reach a page's route in the language the reader named (Accept-Language or
// the lang cookie), on the API too when the client names a language, and the spec's Spanish to a client naming none.
func TestOperationsRefuseInTheReadersLanguage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		message := func(what string, status int, text string, wantStatus int) string {
			t.Helper()
			var b map[string]any
			if err := json.Unmarshal([]byte(text), &b); err != nil || status != wantStatus || b["success"] != false {
				t.Fatalf("%s: %d %s, want %d {success:false}", what, status, text, wantStatus)
			}
			return b["message"].(string)
		}

		// ops: a reservation that does not exist.
		for _, c := range []struct{ header, value, want string }{
			{"Accept-Language", "en-GB,en;q=0.9", "Booking 999999 does not exist."},
			{"Cookie", "lang=de", "Die Buchung 999999 existiert nicht."},
			{"Accept-Language", "ja", "La reserva 999999 no existe."},
		} {
			st, _, body := e.Send("PATCH", "/admin/reservations/999999/start", "", "", "Accept", "application/json", c.header, c.value)
			if got := message("start "+c.value, st, body, http.StatusNotFound); got != c.want {
				t.Errorf("start with %s %s: %q, want %q", c.header, c.value, got, c.want)
			}
		}

		// records: the history's unknown status, in JSON and on the page.
		st, _, body := e.Send("GET", "/admin/history?status=PAGADA", "", "", "Accept", "application/json", "Accept-Language", "en")
		if got, want := message("history en", st, body, http.StatusBadRequest), `The status "PAGADA" does not exist: use PENDIENTE, EN CURSO, FINALIZADA or CANCELADA.`; got != want {
			t.Errorf("history in English: %q, want %q", got, want)
		}
		st, _, body = e.Send("GET", "/admin/history?status=PAGADA", "", "", "Accept", "application/json")
		if got, want := message("history", st, body, http.StatusBadRequest), `El estado "PAGADA" no existe: use PENDIENTE, EN CURSO, FINALIZADA o CANCELADA.`; got != want {
			t.Errorf("history, no language named: %q, want %q", got, want)
		}
		page := webtest.Do(t, e.C, "GET", e.A.URL+"/admin/history?status=PAGADA", nil, "Accept: text/html", "Cookie: lang=de")
		webtest.WantStatus(t, page, http.StatusBadRequest)
		webtest.WantAll(t, "history page in German", page.Body, "Der Status „PAGADA“ existiert nicht")

		// booking: the manage lookup's one answer to a wrong pair, on the page and
		// on the API.
		cl := apptest.Client(t)
		entry := clocktest.Day(3, 10, 0)
		status, b := webtest.CustCall(t, nil, "POST", e.A.URL+"/api/reservations/public-new", map[string]any{
			"full_name": "Ana Pérez", "phone": "612345678", "email": "ana@example.com", "license_plate": "LANG1", "vehicle_type": "Turismo",
			"entry_date": entry.Format(time.RFC3339), "exit_date": entry.AddDate(0, 0, 3).Format(time.RFC3339), "id_main_service": 1,
		})
		if status != http.StatusCreated {
			t.Fatalf("booking: %d %v", status, b)
		}
		ref := b["data"].(map[string]any)["reference"].(string)
		wrong := url.Values{"reference": {ref}, "contact": {"699000111"}}
		res := webtest.PostForm(t, cl, e.A.URL+"/reserva", wrong, "Accept-Language: en-US,en;q=0.8")
		webtest.WantStatus(t, res, http.StatusNotFound)
		webtest.WantAll(t, "lookup page in English", res.Body, "We found no booking with that reference and that phone number or email address, or the link has expired.")
		res = webtest.PostForm(t, cl, e.A.URL+"/reserva", wrong, "Cookie: lang=fr")
		webtest.WantStatus(t, res, http.StatusNotFound)
		webtest.WantAll(t, "lookup page in French", res.Body, "Nous n’avons trouvé aucune réservation avec cette référence")
		res = webtest.PostJSON(t, cl, e.A.URL+"/api/bookings/lookup", map[string]any{"reference": ref, "phone": "699000111"})
		webtest.WantStatus(t, res, http.StatusNotFound)
		if got := webtest.Decode(t, res)["message"]; got != "No encontramos ninguna reserva con esa referencia y ese teléfono o correo electrónico, o el enlace ha caducado." {
			t.Errorf("API lookup naming no language: %q, want the Spanish", got)
		}
		res = webtest.PostJSON(t, cl, e.A.URL+"/api/bookings/lookup", map[string]any{"reference": ref, "phone": "699000111"}, "Accept-Language: en")
		webtest.WantStatus(t, res, http.StatusNotFound)
		if !strings.Contains(res.Body, "We found no booking") {
			t.Errorf("API lookup with Accept-Language en: %s", res.Body)
		}
	})
}
