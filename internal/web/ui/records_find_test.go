package ui_test

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// TestAdminFind: GET /admin/find?q= opens the only active reservation a reference,
// plate, phone or id names, else the only one, else searches the history; the
// search box is on every staff page.
func TestAdminFind(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		now := apptest.Now(e.A)
		one := e.WalkIn(webtest.WalkInFields(1, now.Add(time.Hour), 2, ""))
		// Plate 0002BCD: a cancelled and an active reservation.
		old := e.WalkIn(webtest.WalkInFields(2, now.Add(time.Hour), 1, ""))
		if st, body := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/cancel", old), nil); st != 200 {
			t.Fatalf("cancel: %d %v", st, body)
		}
		active := e.WalkIn(webtest.WalkInFields(2, now.Add(96*time.Hour), 1, ""))
		// Plate 0003BCD: two active reservations.
		e.WalkIn(webtest.WalkInFields(3, now.Add(time.Hour), 1, ""))
		e.WalkIn(webtest.WalkInFields(3, now.Add(96*time.Hour), 1, ""))
		// Plate 0004BCD: only a cancelled one.
		gone := e.WalkIn(webtest.WalkInFields(4, now.Add(time.Hour), 1, ""))
		e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/cancel", gone), nil)

		ref := e.Stored(one).Reference
		detail := func(id int64) string { return fmt.Sprintf("/admin/reservations/details/%d", id) }
		for q, want := range map[string]string{
			strings.ToLower(reservation.ShowReference(ref)): detail(one),
			ref:             detail(one),
			"0001-bcd":      detail(one),
			"0001 BCD":      detail(one),
			"600 00 00 01":  detail(one),
			"+34600000001":  detail(one),
			fmt.Sprint(one): detail(one),
			"0002BCD":       detail(active),
			"0004bcd":       detail(gone),
			"0003BCD":       "/admin/history?search=0003BCD",
			"Nadie García":  "/admin/history?search=" + url.QueryEscape("Nadie García"),
			"":              "/admin/history",
		} {
			st, loc, _ := e.Send("GET", "/admin/find?q="+url.QueryEscape(q), "", "", "Accept", "text/html")
			if st != 303 || loc != want {
				t.Errorf("find %q: %d %q, want 303 %q", q, st, loc, want)
			}
		}
		// Staff only.
		r := webtest.Do(t, apptest.Client(t), "GET", e.A.URL+"/admin/find?q=0001BCD", nil)
		if r.StatusCode == 303 && strings.Contains(r.Header.Get("Location"), "details") {
			t.Errorf("anonymous find: %d %s", r.StatusCode, r.Header.Get("Location"))
		}
		// The search box on staff pages, not on public ones.
		for _, p := range []string{"/admin/dashboard", "/admin/history", "/admin/settings", "/admin/devices"} {
			webtest.WantAll(t, p, e.Page(p).Body, `action="/admin/find"`, `name="q"`, `<details class="nav-menu">`)
		}
		if body := webtest.Do(t, apptest.Client(t), "GET", e.A.URL+"/booking", nil).Body; strings.Contains(body, `action="/admin/find"`) {
			t.Error("the public booking page has the staff search box")
		}
	})
}

// TestShortLink: GET /r/{reference}, the QR code's address: staff go to the
// reservation; anyone else to the lookup form with the reference filled in, the
// same answer whether or not it exists.
func TestShortLink(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		id := e.WalkIn(webtest.WalkInFields(1, apptest.Now(e.A).Add(time.Hour), 2, ""))
		ref := reservation.ShowReference(e.Stored(id).Reference)
		st, loc, _ := e.Send("GET", "/r/"+strings.ToLower(strings.ReplaceAll(ref, "-", "")), "", "")
		if st != 303 || loc != fmt.Sprintf("/admin/reservations/details/%d", id) {
			t.Errorf("staff: %d %q", st, loc)
		}
		anon := apptest.Client(t)
		missing := "ZZZZ-ZZZZ"
		if missing == ref {
			missing = "YYYY-YYYY"
		}
		for _, r := range []string{ref, missing} {
			res := webtest.Do(t, anon, "GET", e.A.URL+"/r/"+r, nil)
			if res.StatusCode != 303 || res.Header.Get("Location") != "/reserva?reference="+r {
				t.Errorf("anonymous /r/%s: %d %q", r, res.StatusCode, res.Header.Get("Location"))
			}
		}
		page := webtest.Do(t, anon, "GET", e.A.URL+"/reserva?reference="+strings.ToLower(ref), nil)
		webtest.WantAll(t, "lookup page", page.Body, `value="`+ref+`"`)
	})
}

// TestHistoryIgnoresAccents: the history search ignores accents and case both ways,
// through the index (three letters or more) and the row test (short terms).
func TestHistoryIgnoresAccents(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		names := []string{"José García Pérez", "Ana Garcia", "Íñigo Núñez", "Bob Smith"}
		ids := make([]int64, len(names))
		for i, n := range names {
			f := webtest.WalkInFields(i+1, time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid), 2, "")
			f["full_name"] = n
			ids[i] = e.WalkIn(f)
		}
		for q, want := range map[string][]int64{
			"garcia":      {ids[0], ids[1]},
			"GARCÍA":      {ids[0], ids[1]},
			"perez":       {ids[0]},
			"Pérez":       {ids[0]},
			"jose garcia": {ids[0]},
			"inigo nunez": {ids[2]},
			"ÑU":          {ids[2]},
			"smith":       {ids[3]},
		} {
			st, body := e.JSON("GET", "/admin/history?search="+url.QueryEscape(q), nil)
			var got []int64
			for _, r := range body["reservations"].([]any) {
				got = append(got, int64(r.(map[string]any)["id_reservation"].(float64)))
			}
			sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
			if st != 200 || fmt.Sprint(got) != fmt.Sprint(want) || body["total_count"] != float64(len(want)) {
				t.Errorf("search %q: %d %v (total %v), want %v", q, st, got, body["total_count"], want)
			}
		}
	})
}
