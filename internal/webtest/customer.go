package webtest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"parking/internal/app"
	"parking/internal/apptest/apispec"
	"parking/internal/reservation"
	"parking/internal/store"
)

// CustCall sends a request as a JSON client (Accept: application/json) with body
// marshalled as JSON unless it is a string (sent as a form). It returns the status
// and the decoded body.
func CustCall(t testing.TB, c *http.Client, method, url string, body any) (int, map[string]any) {
	t.Helper()
	status, raw := CustCallRaw(t, c, method, url, body, nil)
	var out map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s %s: body is not a JSON object: %s", method, url, raw)
		}
	}
	return status, out
}

func CustCallRaw(t testing.TB, c *http.Client, method, url string, body any, header http.Header) (int, []byte) {
	t.Helper()
	var rd io.Reader
	ctype := ""
	switch b := body.(type) {
	case nil:
	case string:
		rd, ctype = strings.NewReader(b), "application/x-www-form-urlencoded"
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd, ctype = bytes.NewReader(raw), "application/json"
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json")
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if c == nil {
		c = &http.Client{} // anonymous: no cookies; redirects followed
		if apispec.Enabled() {
			apispec.Client(t, c) // the exchange is checked against the API document too
		}
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, raw
}

// CustWantBody fails unless got equals want exactly (as decoded JSON).
func CustWantBody(t *testing.T, got map[string]any, want map[string]any) {
	t.Helper()
	w, _ := json.Marshal(want)
	var norm map[string]any
	_ = json.Unmarshal(w, &norm)
	if !reflect.DeepEqual(got, norm) {
		g, _ := json.Marshal(got)
		t.Errorf("body = %s, want %s", g, w)
	}
}

// CustBook makes a public booking with this phone and returns its id. It is booked
// as the holder of an account with this phone would book it: with that account's
// email (the booking is then the account's once the email is verified,
// docs/privacy.md#who-sees-a-booking); without such an account, with no email.
func CustBook(t testing.TB, a *app.App, phone, plate, vehicleType, entry, exit string, service int, extras []int) int64 {
	t.Helper()
	req := map[string]any{
		"full_name": "Reserva " + phone, "phone": phone, "license_plate": plate, "vehicle_type": vehicleType,
		"entry_date": entry, "exit_date": exit, "id_main_service": service, "additional_services": extras,
	}
	if e164, err := a.Config.Input.Phone("phone", phone); err == nil {
		var email *string
		if err := a.Store.DB().QueryRowContext(context.Background(),
			`SELECT email FROM customer WHERE phone = $1 AND type = 'REGISTRADO'`, e164).Scan(&email); err == nil && email != nil {
			req["email"] = *email
		}
	}
	status, body := CustCall(t, nil, "POST", a.URL+"/api/reservations/public-new", req)
	if status != http.StatusCreated {
		t.Fatalf("booking: status %d, body %v", status, body)
	}
	return int64(body["data"].(map[string]any)["id_reservation"].(float64))
}

// CustBookPast makes a reservation of a stay in the past: public bookings refuse a
// past entry (docs/dates.md#past-entries), so it is booked three years later and moved back to
// the stay asked for (the price depends on the length only).
func CustBookPast(t testing.TB, a *app.App, phone, plate, vehicleType, entry, exit string, service int, extras []int) int64 {
	t.Helper()
	later := func(s string) string { return CustAt(s).AddDate(3, 0, 0).Format("2006-01-02T15:04") }
	id := CustBook(t, a, phone, plate, vehicleType, later(entry), later(exit), service, extras)
	CustExec(t, a, `UPDATE reservation SET entry_date = $2, exit_date = $3 WHERE id_reservation = $1`,
		id, CustAt(entry).UTC(), CustAt(exit).UTC())
	return id
}

// CustSetStatus moves a reservation to a state directly in the database (the
// administrator routes are tested elsewhere). EN CURSO keeps or assigns a spot;
// FINALIZADA is paid by card.
func CustSetStatus(t *testing.T, a *app.App, id int64, st reservation.Status) {
	t.Helper()
	q := `UPDATE reservation SET status = $2 WHERE id_reservation = $1`
	switch st {
	case reservation.InCourse:
		q = `UPDATE reservation SET status = $2, cod_parking_spot = COALESCE(cod_parking_spot, 'A-1') WHERE id_reservation = $1`
	case reservation.Finalized:
		q = `UPDATE reservation SET status = $2, is_paid = true, payment_method = 'TARJETA' WHERE id_reservation = $1`
	case reservation.Cancelled:
		q = `UPDATE reservation SET status = $2, cod_parking_spot = NULL WHERE id_reservation = $1`
	}
	CustExec(t, a, q, id, string(st))
}

func CustExec(t testing.TB, a *app.App, q string, args ...any) {
	t.Helper()
	ctx := context.Background()
	if err := a.Store.InTx(ctx, func(tx *store.Tx) error {
		_, err := tx.Exec(ctx, q, args...)
		return err
	}); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// CustSnapshotReservation is a reservation with its extras, to show a refusal changed nothing.
type CustSnapshotReservation struct {
	R      reservation.Reservation
	Extras []reservation.BookedExtraDetail
}

func CustSnapshot(t *testing.T, a *app.App, id int64) CustSnapshotReservation {
	t.Helper()
	ctx := context.Background()
	r, err := a.Store.Reservations().Reservation(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := a.Store.Reservations().ReservationExtras(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return CustSnapshotReservation{R: r, Extras: ex}
}

func CustWantUnchanged(t *testing.T, a *app.App, before CustSnapshotReservation) {
	t.Helper()
	if after := CustSnapshot(t, a, before.R.ID); !reflect.DeepEqual(after, before) {
		t.Errorf("reservation %d changed by a refused request:\n before %+v\n after  %+v", before.R.ID, before, after)
	}
}
