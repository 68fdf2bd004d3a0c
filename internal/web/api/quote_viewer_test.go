package api_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/catalog"
	"parking/internal/clock/clocktest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// The quote reads its caller (httpx.Kit.Viewer) without a lookup when the request
// carries neither a cookie nor an Authorization header; with either, the session or
// the token is still read. A main service closed to the public tells them apart: the
// public is refused it (400), staff are quoted it (200).
func TestQuoteViewer(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		if _, err := a.CatalogOps.UpdateMainService(context.Background(), 2, catalog.MainServiceInput{Active: ptrTo(false)}); err != nil {
			t.Fatal(err)
		}
		admin, _ := apptest.Admin(t, a)
		base, _ := url.Parse(a.URL)
		var session string
		for _, c := range admin.Jar.Cookies(base) {
			if c.Name == "parking_session" {
				session = c.Value
			}
		}
		if session == "" {
			t.Fatal("no session cookie for the administrator")
		}
		apptest.Account(t, a, reservation.Registered, "Carlos", "carlos@example.com", "600000001", "customer-password")
		cl := apptest.Client(t)
		adminToken := issueToken(t, cl, a.URL, "admin@example.com", "admin-password")["token"].(string)
		customerToken := issueToken(t, cl, a.URL, "carlos@example.com", "customer-password")["token"].(string)

		body := `{"entry_date":"` + clocktest.D("2027-03-01") + `T10:00","exit_date":"` + clocktest.D("2027-03-02") + `T10:00","vehicle_type":"COCHE","id_main_service":2}`
		for _, tc := range []struct {
			name    string
			headers []string
			want    int
		}{
			{"anonymous", nil, http.StatusBadRequest},
			{"a cookie but no session", []string{"Cookie: lang=en"}, http.StatusBadRequest},
			{"an unknown session", []string{"Cookie: parking_session=not-a-session"}, http.StatusBadRequest},
			{"the administrator's session", []string{"Cookie: parking_session=" + session}, http.StatusOK},
			{"the session among other cookies", []string{"Cookie: lang=en; parking_session=" + session}, http.StatusOK},
			{"the administrator's token", []string{"Authorization: Bearer " + adminToken}, http.StatusOK},
			{"a customer's token", []string{"Authorization: Bearer " + customerToken}, http.StatusBadRequest},
			{"an unknown token", []string{"Authorization: Bearer not-a-token"}, http.StatusBadRequest},
			{"an Authorization of another scheme", []string{"Authorization: Basic YWRtaW46eA=="}, http.StatusBadRequest},
		} {
			headers := append([]string{"Content-Type: application/json"}, tc.headers...)
			res := webtest.Do(t, cl, "POST", a.URL+"/api/pricing/dynamic", strings.NewReader(body), headers...)
			if res.StatusCode != tc.want {
				t.Errorf("%s: %d %s, want %d", tc.name, res.StatusCode, res.Body, tc.want)
			}
		}
	})
}
