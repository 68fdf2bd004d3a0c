package ui_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// docs/privacy.md#consents: the public booking stores privacy_ack and marketing_consent with
// their time when sent, and a spec client that sends neither still books.
func TestBookingConsentsStored(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		book := func(phone, plate string, extra map[string]any) int64 {
			body := map[string]any{
				"full_name": "Reserva " + phone, "phone": phone, "license_plate": plate, "vehicle_type": "TURISMO",
				"entry_date": clocktest.D("2026-12-01") + "T10:00", "exit_date": clocktest.D("2026-12-05") + "T10:00", "id_main_service": 1,
			}
			for k, v := range extra {
				body[k] = v
			}
			status, res := webtest.CustCall(t, nil, "POST", a.URL+"/api/reservations/public-new", body)
			if status != http.StatusCreated {
				t.Fatalf("booking with %v: %d %v", extra, status, res)
			}
			return int64(res["data"].(map[string]any)["id_reservation"].(float64))
		}
		both := book("611000001", "1111AAA", map[string]any{"privacy_ack": true, "marketing_consent": true})
		ackOnly := book("611000002", "2222BBB", map[string]any{"privacy_ack": true, "marketing_consent": false})
		spec := book("611000003", "3333CCC", nil)
		for _, c := range []struct {
			id             int64
			ack, marketing int
		}{{both, 1, 1}, {ackOnly, 1, 0}, {spec, 0, 0}} {
			if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation WHERE id_reservation = $1 AND privacy_ack_at = $2`, c.id, apptest.Now(a)); n != c.ack {
				t.Errorf("reservation %d: privacy_ack_at at the booking's time: %d, want %d", c.id, n, c.ack)
			}
			if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation WHERE id_reservation = $1 AND marketing_consent_at IS NOT NULL`, c.id); n != c.marketing {
				t.Errorf("reservation %d: marketing consent stored %d, want %d", c.id, n, c.marketing)
			}
		}
		status, res := webtest.CustCall(t, nil, "POST", a.URL+"/api/reservations/public-new", map[string]any{
			"full_name": "X", "phone": "611000004", "license_plate": "4444DDD", "vehicle_type": "TURISMO",
			"entry_date": clocktest.D("2026-12-01") + "T10:00", "exit_date": clocktest.D("2026-12-05") + "T10:00", "id_main_service": 1, "privacy_ack": "quizá",
		})
		if status != http.StatusBadRequest || res["success"] != false {
			t.Errorf("privacy_ack not a boolean: %d %v, want 400", status, res)
		}
	})
}

// The registration page requires "He leído la política de privacidad" (its form
// says it showed the notice); the consents are stored with their time; a spec
// client posting the spec's fields only still registers.
func TestRegistrationConsents(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		page := webtest.Do(t, apptest.Client(t), "GET", a.URL+"/users/register", nil)
		webtest.WantAll(t, "registration page", page.Body, "He leído la política de privacidad", `name="privacy_ack"`,
			`name="marketing_consent"`, `name="privacy_notice"`, `href="/privacidad"`)

		form := url.Values{"full_name": {"Marta Gil"}, "email": {"marta@example.com"}, "phone": {"655123456"},
			"password": {"marta-secreta"}, "confirmPassword": {"marta-secreta"}, "privacy_notice": {"shown"},
			"marketing_consent": {"true"}}
		res := webtest.PostForm(t, apptest.Client(t), a.URL+"/users/register", form)
		webtest.WantStatus(t, res, http.StatusBadRequest)
		webtest.WantAll(t, "refusal", res.Body, "confirme que ha leído la política de privacidad", `id="marketing_consent" name="marketing_consent" value="true" checked`)
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE email = 'marta@example.com'`); n != 0 {
			t.Fatal("registered without the acknowledgement")
		}

		form.Set("privacy_ack", "true")
		res = webtest.PostForm(t, apptest.Client(t), a.URL+"/users/register", form)
		webtest.WantStatus(t, res, http.StatusSeeOther)
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE email = 'marta@example.com'
			AND privacy_ack_at = $1 AND marketing_consent_at = $1`, apptest.Now(a)); n != 1 {
			t.Errorf("consents of the registration not stored with their time")
		}

		// A spec client: the spec's fields only, as JSON or as a form.
		r := webtest.PostJSON(t, apptest.Client(t), a.URL+"/users/register", map[string]any{"full_name": "Luis", "email": "luis@example.com",
			"phone": "655123457", "password": "luis-secreta", "confirmPassword": "luis-secreta"})
		webtest.WantStatus(t, r, http.StatusCreated)
		r = webtest.PostForm(t, apptest.Client(t), a.URL+"/users/register", url.Values{"full_name": {"Eva"}, "email": {"eva@example.com"},
			"phone": {"655123458"}, "password": {"eva-secreta"}, "confirmPassword": {"eva-secreta"}})
		webtest.WantStatus(t, r, http.StatusSeeOther)
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE email IN ('luis@example.com', 'eva@example.com') AND privacy_ack_at IS NULL`); n != 2 {
			t.Errorf("spec clients' accounts: %d without an acknowledgement, want 2", n)
		}
		if !strings.Contains(webtest.Do(t, apptest.Client(t), "GET", a.URL+"/booking", nil).Body, `id="privacy_ack"`) {
			t.Error("the booking page lacks the privacy acknowledgement")
		}
	})
}
