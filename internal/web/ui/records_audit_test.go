package ui_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// TestAdminAuditPages: the actor is the signed-in person whichever route made the
// change (staff pages, the customer area, an anonymous public booking); the detail
// page shows the reservation's trail newest first; /admin/audit filters the whole
// trail by person, reservation and days, as a page and as JSON.
func TestAdminAuditPages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		a := e.A
		entry := clocktest.Shift(time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid))
		id := e.StartedReservation(1, "A-1") // walk-in, 5 photos, start

		// An anonymous public booking, then its owner's edit in the customer area.
		cc, cu := apptest.Customer(t, a, "cli@example.com", "611222333")
		pub := webtest.CustBook(t, a, "611222333", "2222CCC", "COCHE", entry.Format(time.RFC3339), entry.AddDate(0, 0, 2).Format(time.RFC3339), 1, nil)
		status, body := webtest.CustCall(t, cc, "PUT", fmt.Sprintf("%s/users/profile/reservation/%d/edit", a.URL, pub),
			map[string]any{"exit_date": entry.AddDate(0, 0, 3).Format(time.RFC3339)})
		if status != 200 {
			t.Fatalf("customer edit: %d %v", status, body)
		}

		status, body = e.JSON("GET", fmt.Sprintf("/admin/audit?reservation=%d", pub), nil)
		if status != 200 || body["total_count"] != 2.0 || body["page_size"] != 50.0 || body["page"] != 1.0 || body["total_pages"] != 1.0 {
			t.Fatalf("trail of the public booking: %d %v", status, body)
		}
		entries := body["entries"].([]any)
		edit, create := entries[0].(map[string]any), entries[1].(map[string]any)
		if edit["action"] != "customer_edit" || edit["actor"].(map[string]any)["id"] != float64(cu.ID) || edit["actor"].(map[string]any)["kind"] != "customer" {
			t.Errorf("edit entry = %v", edit)
		}
		if create["action"] != "create" || create["actor"].(map[string]any)["name"] != "público" || create["actor"].(map[string]any)["id"] != nil ||
			create["reservation_id"] != float64(pub) || create["entity"] != "reservation" {
			t.Errorf("create entry = %v", create)
		}
		var exitChange map[string]any
		for _, c := range edit["changes"].([]any) {
			if c.(map[string]any)["field"] == "exit_date" {
				exitChange = c.(map[string]any)
			}
		}
		if exitChange == nil || exitChange["before"] == exitChange["after"] {
			t.Errorf("edit changes = %v", edit["changes"])
		}
		if _, err := time.Parse(time.RFC3339, edit["at"].(string)); err != nil {
			t.Errorf("at = %v", edit["at"])
		}

		// The staff reservation: walk-in, 5 photos, start, all by the administrator.
		status, body = e.JSON("GET", fmt.Sprintf("/admin/audit?reservation=%d&person=admin@example.com", id), nil)
		if status != 200 || body["total_count"] != 7.0 {
			t.Fatalf("staff trail: %d %v", status, body)
		}
		var actions []string
		for _, x := range body["entries"].([]any) {
			actions = append(actions, x.(map[string]any)["action"].(string))
		}
		if got := strings.Join(actions, ","); got != "start,photo_added,photo_added,photo_added,photo_added,photo_added,walk_in" {
			t.Errorf("actions = %s", got)
		}
		for q, want := range map[string]float64{
			"":                                  9,
			"?person=Cliente%20611222333":       1,
			"?person=" + fmt.Sprint(cu.ID):      1,
			"?person=p%C3%BAblico":              1,
			"?from=2000-01-01&to=2100-12-31":    9,
			"?to=2000-01-01":                    0,
			"?reservation=" + fmt.Sprint(id+99): 0,
		} {
			status, body := e.JSON("GET", "/admin/audit"+q, nil)
			if status != 200 || body["total_count"] != want {
				t.Errorf("/admin/audit%s: %d total %v, want %v", q, status, body["total_count"], want)
			}
		}
		for _, q := range []string{"?from=2027-02-30", "?reservation=abc", "?from=2027-03-02&to=2027-03-01"} {
			if status, body := e.JSON("GET", "/admin/audit"+q, nil); status != 400 || body["success"] != false {
				t.Errorf("/admin/audit%s: %d %v, want 400", q, status, body)
			}
		}

		// Pages.
		page := webtest.Do(t, e.C, "GET", a.URL+"/admin/audit?person=admin", nil, "Accept: text/html")
		webtest.CheckPage(t, page)
		if page.StatusCode != 200 || strings.Count(page.Body, "data-audit-entry") != 7 || !strings.Contains(page.Body, "Admin Test &lt;admin@example.com&gt;") {
			t.Errorf("audit page: %d, %d entries", page.StatusCode, strings.Count(page.Body, "data-audit-entry"))
		}
		if bad := webtest.Do(t, e.C, "GET", a.URL+"/admin/audit?from=nope", nil, "Accept: text/html"); bad.StatusCode != 400 || !strings.Contains(bad.Body, "from no es una fecha válida") {
			t.Errorf("audit page with a bad day: %d", bad.StatusCode)
		}
		detail := webtest.Do(t, e.C, "GET", fmt.Sprintf("%s/admin/reservations/details/%d", a.URL, id), nil, "Accept: text/html")
		webtest.CheckPage(t, detail)
		trail := detail.Body[strings.Index(detail.Body, `id="registro"`):]
		if n := strings.Count(trail, "data-audit-entry"); n != 7 {
			t.Errorf("detail page trail has %d entries, want 7", n)
		}
		if i, j := strings.Index(trail, "Entrada del vehículo"), strings.Index(trail, "Reserva en mostrador"); i < 0 || j < 0 || i > j {
			t.Error("detail page trail is not newest first")
		}
		if !strings.Contains(trail, "PENDIENTE → EN CURSO") {
			t.Error("detail page trail misses the status change")
		}

		// Not for customers nor anonymous callers.
		if r := webtest.Do(t, cc, "GET", a.URL+"/admin/audit", nil, "Accept: application/json"); r.StatusCode != 401 {
			t.Errorf("customer on /admin/audit: %d", r.StatusCode)
		}
		if r := webtest.Do(t, apptest.Client(t), "GET", a.URL+"/admin/staff", nil, "Accept: application/json"); r.StatusCode != 401 {
			t.Errorf("anonymous on /admin/staff: %d", r.StatusCode)
		}
	})
}
