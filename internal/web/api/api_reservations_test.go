package api_test

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// boardOf fetches GET /api/reservations?date=… with an administrator token and
// returns the parsed body.
func boardOf(t *testing.T, a *app.App, token, date string) (map[string]any, webtest.Response) {
	t.Helper()
	u := a.URL + "/api/reservations"
	if date != "" {
		u += "?date=" + date
	}
	res := webtest.Do(t, apptest.Client(t), "GET", u, nil, "Authorization: Bearer "+token)
	webtest.WantStatus(t, res, 200)
	return webtest.Decode(t, res), res
}

// ids lists the id_reservation of a board array, in order.
func ids(t *testing.T, list any) []int64 {
	t.Helper()
	var out []int64
	for _, it := range list.([]any) {
		out = append(out, int64(it.(map[string]any)["id_reservation"].(float64)))
	}
	return out
}

func sameIDs(a, b []int64) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func adminToken(t *testing.T, a *app.App) string {
	t.Helper()
	apptest.Account(t, a, "ADMIN", "Ana Admin", "board-admin@example.com", "", "admin-password")
	return issueToken(t, apptest.Client(t), a.URL, "board-admin@example.com", "admin-password")["token"].(string)
}

// The daily board (docs/board.md): local calendar days
// of Europe/Madrid, a reservation in both arrays when it enters and leaves that
// day, never in exits without an exit date, both arrays ordered by entry date, the
// stats, the exact item shape.
func TestDailyBoard(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		tok := adminToken(t, a)

		// 2026-11-21 is in winter time (+01:00): the day is [2026-11-20T23:00Z, 2026-11-21T23:00Z).
		late := webtest.SeedStay(t, a, "LATE1", "2026-11-21T23:30:00+01:00", "2026-11-25T10:00:00+01:00")        // 22:30Z: on the 21st
		utcLate := webtest.SeedStay(t, a, "UTC2", "2026-11-21T23:30:00Z", "2026-11-25T10:00:00+01:00")           // 00:30 local on the 22nd
		midnight := webtest.SeedStay(t, a, "MID3", "2026-11-21T00:00:00+01:00", "2026-11-23T10:00:00+01:00")     // first instant of the 21st
		webtest.SeedStay(t, a, "BEF4", "2026-11-20T23:59:59+01:00", "2026-11-23T10:00:00+01:00")                 // last second of the 20th
		nextMidnight := webtest.SeedStay(t, a, "NXT5", "2026-11-22T00:00:00+01:00", "2026-11-24T10:00:00+01:00") // first instant of the 22nd
		sameDay := webtest.SeedStay(t, a, "SAME6", "2026-11-21T08:00:00+01:00", "2026-11-21T18:00:00+01:00")     // in both arrays
		open := webtest.SeedStay(t, a, "OPEN7", "2026-11-21T09:00:00+01:00", "")                                 // no exit date
		leaving := webtest.SeedStay(t, a, "LEAVE8", "2026-11-18T10:00:00+01:00", "2026-11-21T12:00:00+01:00")    // exits only
		leavingLate := webtest.SeedStay(t, a, "LEAVE9", "2026-11-19T10:00:00+01:00", "2026-11-21T23:59:00+01:00")
		notLeaving := webtest.SeedStay(t, a, "LEAVEA", "2026-11-19T10:00:00+01:00", "2026-11-21T23:00:00Z") // 00:00 local on the 22nd

		b, res := boardOf(t, a, tok, "2026-11-21")
		if ct := res.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
			t.Errorf("Content-Type = %q", ct)
		}
		if b["date"] != "2026-11-21" {
			t.Errorf("date = %v", b["date"])
		}
		if got, want := ids(t, b["entries"]), []int64{midnight, sameDay, open, late}; !sameIDs(got, want) {
			t.Errorf("entries = %v, want %v (by entry date)", got, want)
		}
		if got, want := ids(t, b["exits"]), []int64{leaving, leavingLate, sameDay}; !sameIDs(got, want) {
			t.Errorf("exits = %v, want %v (by entry date, not exit date)", got, want)
		}
		stats := b["stats"].(map[string]any)
		if stats["total_entries"] != 4.0 || stats["total_exits"] != 3.0 || stats["total_overdue"] != 0.0 || len(stats) != 3 {
			t.Errorf("stats = %v, want 4 entries, 3 exits, 0 overdue (not today)", stats)
		}

		// The next day holds what fell past local midnight.
		b, _ = boardOf(t, a, tok, "2026-11-22")
		if got, want := ids(t, b["entries"]), []int64{nextMidnight, utcLate}; !sameIDs(got, want) {
			t.Errorf("22nd entries = %v, want %v", got, want)
		}
		if got, want := ids(t, b["exits"]), []int64{notLeaving}; !sameIDs(got, want) {
			t.Errorf("22nd exits = %v, want %v", got, want)
		}

		// The exact item shape, with the facility's offset and a null exit date.
		b, res = boardOf(t, a, tok, "2026-11-21")
		items := b["entries"].([]any)
		wantItem := fmt.Sprintf(`{"id_reservation":%d,"entry_date":"2026-11-21T09:00:00+01:00","exit_date":null,"status":"PENDIENTE","license_plate":"OPEN7","brand":"Seat","color":"Rojo","customer_name":"Cliente OPEN7","phone":"%s","service_name":"TRANSFER"}`,
			open, phoneOf(t, a, open))
		if !strings.Contains(res.Body, wantItem) {
			t.Errorf("item shape: body lacks\n%s\nin\n%s", wantItem, res.Body)
		}
		if len(items[0].(map[string]any)) != 10 {
			t.Errorf("item has %d fields, want the spec's 10: %v", len(items[0].(map[string]any)), items[0])
		}
		wantSame := fmt.Sprintf(`"id_reservation":%d,"entry_date":"2026-11-21T08:00:00+01:00","exit_date":"2026-11-21T18:00:00+01:00"`, sameDay)
		if strings.Count(res.Body, wantSame) != 2 {
			t.Errorf("same-day reservation should appear twice with both dates:\n%s", res.Body)
		}

		// The status is the stored one, whatever it is.
		webtest.Exec(t, a, `UPDATE reservation SET status = 'CANCELADA' WHERE id_reservation = $1`, late)
		b, _ = boardOf(t, a, tok, "2026-11-21")
		last := b["entries"].([]any)[3].(map[string]any)
		if last["status"] != "CANCELADA" {
			t.Errorf("status = %v", last["status"])
		}

		// Equal entry times keep a stable order (by id).
		twinA := webtest.SeedStay(t, a, "TWINA", "2026-11-23T10:00:00+01:00", "")
		twinB := webtest.SeedStay(t, a, "TWINB", "2026-11-23T10:00:00+01:00", "")
		b, _ = boardOf(t, a, tok, "2026-11-23")
		if got := ids(t, b["entries"]); !sameIDs(got, []int64{twinA, twinB}) {
			t.Errorf("equal entry times: %v, want %v", got, []int64{twinA, twinB})
		}

		// An empty day has empty arrays, not nulls.
		_, res = boardOf(t, a, tok, "2030-01-01")
		webtest.WantBody(t, res, `{"date":"2030-01-01","stats":{"total_entries":0,"total_exits":0,"total_overdue":0},"entries":[],"exits":[],"overdue":[]}`)
	})
}

func phoneOf(t *testing.T, a *app.App, reservationID int64) string {
	t.Helper()
	var p string
	if err := a.Store.DB().QueryRow(`SELECT c.phone FROM reservation r JOIN customer c ON c.id_customer = r.id_customer WHERE r.id_reservation = $1`, reservationID).Scan(&p); err != nil {
		t.Fatal(err)
	}
	return p
}

// Daylight-saving days: 2026-03-29 has 23 hours in Madrid (02:00 → 03:00), 2026-10-25
// has 25 (03:00 → 02:00). A 24-hour range from midnight would get both wrong.
func TestDailyBoardDST(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		tok := adminToken(t, a)

		// Spring: the day is [2026-03-28T23:00Z, 2026-03-29T22:00Z).
		springEarly := webtest.SeedStay(t, a, "SPR1", "2026-03-29T00:30:00+01:00", "2026-03-29T23:30:00+02:00") // both arrays
		springLate := webtest.SeedStay(t, a, "SPR2", "2026-03-29T23:30:00+02:00", "2026-04-02T10:00:00+02:00")
		springNext := webtest.SeedStay(t, a, "SPR3", "2026-03-29T22:30:00Z", "2026-04-02T10:00:00+02:00") // 00:30 on the 30th
		webtest.SeedStay(t, a, "SPR4", "2026-03-28T23:30:00+01:00", "2026-04-02T10:00:00+02:00")          // the 28th
		b, res := boardOf(t, a, tok, "2026-03-29")
		if got, want := ids(t, b["entries"]), []int64{springEarly, springLate}; !sameIDs(got, want) {
			t.Errorf("spring entries = %v, want %v", got, want)
		}
		if got, want := ids(t, b["exits"]), []int64{springEarly}; !sameIDs(got, want) {
			t.Errorf("spring exits = %v, want %v", got, want)
		}
		for _, s := range []string{`"entry_date":"2026-03-29T00:30:00+01:00"`, `"exit_date":"2026-03-29T23:30:00+02:00"`, `"entry_date":"2026-03-29T23:30:00+02:00"`} {
			if !strings.Contains(res.Body, s) {
				t.Errorf("spring body lacks %s (offsets must follow the date)", s)
			}
		}
		b, _ = boardOf(t, a, tok, "2026-03-30")
		if got := ids(t, b["entries"]); !sameIDs(got, []int64{springNext}) {
			t.Errorf("30 March entries = %v, want %v", got, []int64{springNext})
		}

		// Autumn: the day is [2026-10-24T22:00Z, 2026-10-25T23:00Z).
		autumnFirst := webtest.SeedStay(t, a, "AUT1", "2026-10-25T00:10:00+02:00", "")
		autumnRepeat := webtest.SeedStay(t, a, "AUT2", "2026-10-25T02:30:00+01:00", "") // the second 02:30
		autumnLate := webtest.SeedStay(t, a, "AUT3", "2026-10-25T23:30:00+01:00", "")   // 22:30Z: past a naive 24 h
		webtest.SeedStay(t, a, "AUT4", "2026-10-24T23:59:00+02:00", "")
		webtest.SeedStay(t, a, "AUT5", "2026-10-26T00:00:00+01:00", "")
		b, _ = boardOf(t, a, tok, "2026-10-25")
		if got, want := ids(t, b["entries"]), []int64{autumnFirst, autumnRepeat, autumnLate}; !sameIDs(got, want) {
			t.Errorf("autumn entries = %v, want %v", got, want)
		}
		if st := b["stats"].(map[string]any); st["total_entries"] != 3.0 || st["total_exits"] != 0.0 {
			t.Errorf("autumn stats = %v", st)
		}
	})
}

// The date parameter: default today in the facility's zone; a date-time counts by
// its local day (docs/dates.md#local-days: time ignored); anything else is 400 {error}.
func TestDailyBoardDateParameter(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		tok := adminToken(t, a)
		madrid, _ := time.LoadLocation("Europe/Madrid")
		now := apptest.Now(a)
		today := now.In(madrid).Format("2006-01-02")
		b, _ := boardOf(t, a, tok, "")
		if b["date"] != today {
			t.Errorf("default date = %v, want today in Madrid (%s)", b["date"], today)
		}
		id := webtest.SeedStay(t, a, "NOW1", now.Format(time.RFC3339), "")
		if b, _ = boardOf(t, a, tok, ""); !sameIDs(ids(t, b["entries"]), []int64{id}) {
			t.Errorf("today's board lacks the stay entering now: %v", b)
		}
		for in, want := range map[string]string{
			"2026-11-21T10:00":          "2026-11-21",
			"2026-11-21T23:30:00Z":      "2026-11-22",
			"2026-11-21T00:30:00+01:00": "2026-11-21",
			" 2026-11-21 ":              "2026-11-21",
		} {
			b, _ := boardOf(t, a, tok, strings.ReplaceAll(strings.ReplaceAll(in, "+", "%2B"), " ", "%20"))
			if b["date"] != want {
				t.Errorf("date=%q → %v, want %s", in, b["date"], want)
			}
		}
		for _, bad := range []string{"yesterday", "2026-13-01", "2026-02-30", "21/11/2026", "1800-01-01"} {
			res := webtest.Do(t, apptest.Client(t), "GET", a.URL+"/api/reservations?date="+bad, nil, "Authorization: Bearer "+tok)
			webtest.WantStatus(t, res, 400)
			if m := webtest.Decode(t, res); len(m) != 1 || !strings.Contains(m["error"].(string), "YYYY-MM-DD") {
				t.Errorf("date=%s: body = %s", bad, res.Body)
			}
		}
	})
}

// The board is cached per day, but never served after a change that alters it,
// whoever made the change: the service itself, another instance, or a script
// writing to the database directly (here, raw SQL).
func TestDailyBoardFollowsChanges(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		tok := adminToken(t, a)
		id := webtest.SeedStay(t, a, "CHG1", "2026-11-21T08:00:00+01:00", "2026-11-21T18:00:00+01:00")
		item := func(list string) map[string]any {
			t.Helper()
			b, _ := boardOf(t, a, tok, "2026-11-21")
			items := b[list].([]any)
			if len(items) != 1 {
				t.Fatalf("%s = %v, want one item", list, items)
			}
			return items[0].(map[string]any)
		}
		item("entries") // cached now
		for _, c := range []struct {
			name, sql, field, want string
		}{
			{"status", `UPDATE reservation SET status = 'EN CURSO' WHERE id_reservation = $1`, "status", "EN CURSO"},
			// The board shows the reservation's contact (docs/public-booking.md#privacy-of-anonymous-bookings); a reservation
			// without one (made before contacts were kept) shows its customer's data.
			{"contact name", `UPDATE reservation SET contact_name = 'Contacto Nuevo' WHERE id_reservation = $1`, "customer_name", "Contacto Nuevo"},
			{"contact phone", `UPDATE reservation SET contact_phone = '688888888' WHERE id_reservation = $1`, "phone", "688888888"},
			{"contact removed", `UPDATE reservation SET contact_name = NULL, contact_phone = NULL, contact_email = NULL WHERE id_reservation = $1`, "customer_name", "Cliente CHG1"},
			{"customer name", `UPDATE customer SET full_name = 'Nombre Nuevo' WHERE id_customer = (SELECT id_customer FROM reservation WHERE id_reservation = $1)`, "customer_name", "Nombre Nuevo"},
			{"customer phone", `UPDATE customer SET phone = '699999999' WHERE id_customer = (SELECT id_customer FROM reservation WHERE id_reservation = $1)`, "phone", "699999999"},
			{"vehicle colour", `UPDATE vehicle SET color = 'Verde' WHERE id_vehicle = (SELECT id_vehicle FROM reservation WHERE id_reservation = $1)`, "color", "Verde"},
			{"vehicle plate", `UPDATE vehicle SET license_plate = 'CHG1X' WHERE id_vehicle = (SELECT id_vehicle FROM reservation WHERE id_reservation = $1)`, "license_plate", "CHG1X"},
			{"service name", `UPDATE main_service SET name = 'TRANSFER PLUS' WHERE id_main_service = (SELECT id_main_service FROM reservation WHERE id_reservation = $1)`, "service_name", "TRANSFER PLUS"},
			{"exit date", `UPDATE reservation SET exit_date = exit_date WHERE id_reservation = $1`, "exit_date", "2026-11-21T18:00:00+01:00"},
		} {
			webtest.Exec(t, a, c.sql, id)
			for _, list := range []string{"entries", "exits"} {
				if got := item(list)[c.field]; got != c.want {
					t.Errorf("after the %s change, %s %s = %v, want %v", c.name, list, c.field, got, c.want)
				}
			}
		}
		// Moving the exit to another day takes it off this day's exits.
		webtest.Exec(t, a, `UPDATE reservation SET exit_date = $1 WHERE id_reservation = $2`, store.Time(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)), id)
		b, _ := boardOf(t, a, tok, "2026-11-21")
		if len(b["exits"].([]any)) != 0 || len(b["entries"].([]any)) != 1 {
			t.Errorf("after moving the exit: %v", b)
		}
		// A new reservation appears at once.
		id2 := webtest.SeedStay(t, a, "CHG2", "2026-11-21T07:00:00+01:00", "")
		b, _ = boardOf(t, a, tok, "2026-11-21")
		if got := ids(t, b["entries"]); !sameIDs(got, []int64{id2, id}) {
			t.Errorf("entries after a new booking = %v", got)
		}
		// Deleting one too.
		webtest.Exec(t, a, `DELETE FROM reservation WHERE id_reservation = $1`, id2)
		b, _ = boardOf(t, a, tok, "2026-11-21")
		if got := ids(t, b["entries"]); !sameIDs(got, []int64{id}) {
			t.Errorf("entries after a deletion = %v", got)
		}
		// Changes that cannot alter any board leave the version alone.
		before, err := a.Store.Records().BoardVersion(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		webtest.Exec(t, a, `UPDATE reservation SET notes = 'nota' WHERE id_reservation = $1`, id)
		webtest.Exec(t, a, `UPDATE customer SET email = 'x@example.com' WHERE id_customer = (SELECT id_customer FROM reservation WHERE id_reservation = $1)`, id)
		after, _ := a.Store.Records().BoardVersion(context.Background())
		if after != before {
			t.Errorf("version moved from %d to %d on changes the board does not show", before, after)
		}
	})
}

// A day's board is sent gzip-compressed to clients that accept it (a day of a large
// car park is hundreds of kilobytes of JSON), the same JSON once decompressed, and
// plain to clients that do not.
func TestDailyBoardCompressed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		tok := adminToken(t, a)
		for i := range 8 {
			webtest.SeedStay(t, a, fmt.Sprintf("GZ%d", i), "2026-11-21T09:00:00+01:00", "2026-11-24T10:00:00+01:00")
		}
		plain, res := boardOf(t, a, tok, "2026-11-21")
		if res.Header.Get("Content-Encoding") != "" {
			t.Fatalf("compressed for a client that did not ask: %v", res.Header)
		}
		if len(res.Body) < 1024 {
			t.Fatalf("board of %d bytes: too small to be compressed, the test needs more stays", len(res.Body))
		}
		for range 2 { // the first read fills the cache, the second is served from it
			gz := webtest.Do(t, apptest.Client(t), "GET", a.URL+"/api/reservations?date=2026-11-21", nil,
				"Authorization: Bearer "+tok, "Accept-Encoding: gzip")
			webtest.WantStatus(t, gz, 200)
			if gz.Header.Get("Content-Encoding") != "gzip" || len(gz.Body) >= len(res.Body) {
				t.Fatalf("Content-Encoding %q, %d bytes against %d plain", gz.Header.Get("Content-Encoding"), len(gz.Body), len(res.Body))
			}
			zr, err := gzip.NewReader(strings.NewReader(gz.Body))
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			if string(body) != res.Body {
				t.Errorf("decompressed board differs from the plain one:\n%s\n%s", body, res.Body)
			}
		}
		if len(plain["entries"].([]any)) != 8 {
			t.Errorf("entries = %v", plain["entries"])
		}
	})
}
