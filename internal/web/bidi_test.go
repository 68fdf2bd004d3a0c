package web_test

import (
	"fmt"
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// Text fields refuse the bidirectional controls (U+202A–U+202E, U+2066–U+2069),
// which make a name read backwards on a staff screen: 400 naming the field and
// nothing saved; the same body without them is accepted.
func TestBidiControlsRefusedNamingTheField(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		a := e.A
		cust, _ := apptest.Customer(t, a, "eva@example.com", "611000111")
		entry := apptest.Now(a).Add(48 * time.Hour).Truncate(time.Hour)
		booking := map[string]any{"full_name": "Ana Pérez", "phone": "622333444", "email": "ana@example.com", "license_plate": "9988LMN",
			"brand": "Seat", "model": "Ibiza", "vehicle_type": "COCHE", "id_main_service": 1,
			"entry_date": entry.Format(time.RFC3339), "exit_date": entry.Add(72 * time.Hour).Format(time.RFC3339)}
		walkIn := webtest.WalkInFields(2, clocktest.Day(3, 10, 0), 2, "A-1")
		walkIn["notes"] = "Llaves en recepción"
		for _, c := range []struct {
			name, method, path string
			client             *http.Client
			body               map[string]any
			field, label       string
			ok                 int
		}{
			{"public booking", "POST", "/api/reservations/public-new", nil, booking, "full_name", "full_name", 201},
			{"public booking", "POST", "/api/reservations/public-new", nil, booking, "brand", "brand", 201},
			{"registration", "POST", "/users/register", apptest.Client(t), map[string]any{"full_name": "Leo Gil", "email": "leo@example.com",
				"phone": "622999888", "password": "leo-password", "confirmPassword": "leo-password"}, "full_name", "full_name", 201},
			{"profile", "PUT", "/users/profile/update", cust, map[string]any{"nombre": "Eva Ruiz", "email": "eva@example.com", "telefono": "611000111"},
				"nombre", "nombre", 200},
			{"walk-in", "POST", "/admin/reservations/new", e.C, walkIn, "notes", "notes", 201},
		} {
			for _, bidi := range []string{"\u202e", "\u202a", "\u2066", "\u2069"} {
				body := maps.Clone(c.body)
				body[c.field] = bidi + body[c.field].(string)
				status, got := webtest.CustCall(t, c.client, c.method, a.URL+c.path, body)
				msg := strings.ToLower(fmt.Sprint(got["message"], got["error"], got["errors"]))
				if status != http.StatusBadRequest || !strings.Contains(msg, c.label) {
					t.Errorf("%s, %q in %s: %d %v, want 400 naming %s", c.name, bidi, c.field, status, got, c.label)
				}
			}
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation WHERE notes LIKE '%Llaves%'`); n != 0 {
			t.Errorf("a refused walk-in was saved: %d", n)
		}
		// The same bodies, clean, are accepted: the refusal was the character's.
		for _, c := range []struct {
			method, path string
			client       *http.Client
			body         map[string]any
			want         int
		}{
			{"POST", "/api/reservations/public-new", nil, booking, 201},
			{"PUT", "/users/profile/update", cust, map[string]any{"nombre": "Eva Ruiz", "email": "eva@example.com", "telefono": "611000111"}, 200},
			{"POST", "/admin/reservations/new", e.C, walkIn, 201},
		} {
			if status, got := webtest.CustCall(t, c.client, c.method, a.URL+c.path, c.body); status != c.want {
				t.Errorf("clean %s %s: %d %v, want %d", c.method, c.path, status, got, c.want)
			}
		}
	})
}
