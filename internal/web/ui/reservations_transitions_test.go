package ui_test

import (
	"fmt"
	"net/http"
	"reflect"
	"sync"
	"testing"
	"time"

	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// docs/reservations.md#transitions: every row an administrator drives, with its side
// effects, through the real routes.
func TestAdminTransitionsTable(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		entry := time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid)

		// (none) → PENDIENTE: walk-in creation.
		status, body := e.JSON("POST", "/admin/reservations/new", webtest.WalkInFields(1, entry, 3, " a-1 "))
		if status != 201 {
			t.Fatalf("walk-in: %d %v", status, body)
		}
		ref, _ := body["data"].(map[string]any)["reference"].(string)
		want := `map[data:map[customer_name:Cliente 1 entry_date:01/03/2027, 10:00:00 id_reservation:1 license_plate:0001BCD reference:` + ref + ` total_price:36] message:Reserva creada correctamente. success:true]`
		if got := fmt.Sprint(body); got != want || len(ref) != 9 {
			t.Errorf("walk-in body\n got %s\nwant %s", got, want)
		}
		r := e.Stored(1)
		if r.Status != "PENDIENTE" || r.Spot == nil || *r.Spot != "A-1" || r.TotalPrice != 3600 {
			t.Errorf("walk-in stored %+v", r)
		}

		// PENDIENTE → EN CURSO: start with 5 photos and a spot.
		e.AddPhotos(1, 5)
		status, body = e.JSON("PATCH", "/admin/reservations/1/start", nil)
		res, _ := body["reservation"].(map[string]any)
		if status != 200 || body["success"] != true || body["message"] != "Reserva 1 iniciada: el vehículo está en el aparcamiento." ||
			res["status"] != "EN CURSO" || res["cod_parking_spot"] != "A-1" || res["entry_date"] != "2027-03-01T10:00:00+01:00" {
			t.Errorf("start: %d %v", status, body)
		}

		// EN CURSO → FINALIZADA: paid, method stored, spot kept.
		status, body = e.JSON("PATCH", "/admin/reservations/1/finalize", map[string]any{"paymentMethod": "TARJETA"})
		res, _ = body["reservation"].(map[string]any)
		if status != 200 || body["success"] != true || body["message"] != "Reserva 1 finalizada y pagada." ||
			res["status"] != "FINALIZADA" || res["is_paid"] != true || res["payment_method"] != "TARJETA" || res["cod_parking_spot"] != "A-1" ||
			res["total_price"] != 36.0 || res["exit_date"] != "2027-03-04T10:00:00+01:00" {
			t.Errorf("finalize: %d %v", status, body)
		}

		// docs/notifications.md#events: the start triggered the vehicle-entry notification and the
		// finalize the invoice (docs/notifications.md#payloads), each in its own transaction.
		_, detail := e.JSON("GET", "/admin/reservations/details/1", nil)
		var types []string
		for _, n := range detail["notifications"].([]any) {
			types = append(types, n.(map[string]any)["type"].(string))
		}
		if fmt.Sprint(types) != "[booking_confirmation booking_reminder vehicle_entry invoice]" {
			t.Errorf("notifications = %v, want booking_confirmation, booking_reminder (docs/manage-booking.md#the-reminder-the-day-before-booking_reminder), vehicle_entry, invoice", types)
		}

		// PENDIENTE → CANCELADA: the spot is set to null.
		id := e.WalkIn(webtest.WalkInFields(2, entry, 3, "B-7"))
		status, body = e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/cancel", id), nil)
		res, _ = body["reservation"].(map[string]any)
		if status != 200 || body["success"] != true || res["status"] != "CANCELADA" || res["cod_parking_spot"] != nil || res["is_paid"] != false {
			t.Errorf("cancel: %d %v", status, body)
		}
		if r := e.Stored(id); r.Spot != nil || r.Status != "CANCELADA" {
			t.Errorf("cancelled stored %+v", r)
		}

		// The finalize method may come from a form too.
		id = e.StartedReservation(3, "C-1")
		st, _, text := e.Send("PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", id), "application/x-www-form-urlencoded", "paymentMethod=EFECTIVO")
		if st != 200 || e.Stored(id).PaymentMethod == nil || *e.Stored(id).PaymentMethod != "EFECTIVO" {
			t.Errorf("finalize by form: %d %s", st, text)
		}
	})
}

// docs/reservations.md#transitions: the checks run in the order status, photo count >= 5,
// parking spot; the first broken one is the answer.
func TestAdminStartCheckOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		entry := time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid)
		b := webtest.WalkInFields(1, entry, 2, "")
		id := e.WalkIn(b) // no photos, no spot

		// Cancelled, no photos, no spot: the status is reported first.
		other := e.WalkIn(webtest.WalkInFields(2, entry, 2, ""))
		e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/cancel", other), nil)
		status, body := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", other), nil)
		webtest.WantMessage(t, status, body, 400, fmt.Sprintf("No se puede iniciar la reserva %d: su estado es CANCELADA y debe ser PENDIENTE.", other))

		// Pending, no photos, no spot: photos next.
		status, body = e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil)
		webtest.WantMessage(t, status, body, 400, fmt.Sprintf("No se puede iniciar la reserva %d: tiene 0 fotos y se necesitan al menos 5.", id))
		e.AddPhotos(id, 4)
		status, body = e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil)
		webtest.WantMessage(t, status, body, 400, fmt.Sprintf("No se puede iniciar la reserva %d: tiene 4 fotos y se necesitan al menos 5.", id))

		// Five photos, no spot: the spot last.
		e.AddPhotos(id, 1)
		status, body = e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil)
		webtest.WantMessage(t, status, body, 400, fmt.Sprintf("No se puede iniciar la reserva %d: no tiene plaza de aparcamiento asignada.", id))

		// With a spot it starts; a second start is refused by status.
		if st, resp := e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/edit", id), map[string]any{"cod_parking_spot": "d-4"}); st != 200 {
			t.Fatalf("assign spot: %d %v", st, resp)
		}
		if status, body = e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil); status != 200 {
			t.Fatalf("start: %d %v", status, body)
		}
		status, body = e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil)
		webtest.WantMessage(t, status, body, 400, fmt.Sprintf("No se puede iniciar la reserva %d: su estado es EN CURSO y debe ser PENDIENTE.", id))
	})
}

// docs/errors.md#refusals-by-operation: every refusal of the administrator's transitions and photos, with
// the message naming what is wrong; unknown ids are 404 (docs/errors.md#operation-responses).
func TestAdminTransitionRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		entry := time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid)
		pending := e.WalkIn(webtest.WalkInFields(1, entry, 2, "A-1"))
		inCourse := e.StartedReservation(2, "A-2")
		p, c := fmt.Sprint(pending), fmt.Sprint(inCourse)

		cases := []struct {
			name, method, path string
			body               any
			status             int
			message            string
		}{
			{"finalize pending", "PATCH", "/admin/reservations/" + p + "/finalize", map[string]any{"paymentMethod": "EFECTIVO"}, 400,
				"No se puede finalizar la reserva " + p + ": su estado es PENDIENTE y debe ser EN CURSO."},
			{"finalize without method", "PATCH", "/admin/reservations/" + c + "/finalize", nil, 400,
				"Falta el método de pago (paymentMethod): use EFECTIVO o TARJETA."},
			{"finalize with another method", "PATCH", "/admin/reservations/" + c + "/finalize", map[string]any{"paymentMethod": "BIZUM"}, 400,
				`El método de pago "BIZUM" no es válido: use EFECTIVO o TARJETA.`},
			{"finalize lower-case method", "PATCH", "/admin/reservations/" + c + "/finalize", map[string]any{"paymentMethod": "efectivo"}, 400,
				`El método de pago "efectivo" no es válido: use EFECTIVO o TARJETA.`},
			{"cancel in course names the status", "PATCH", "/admin/reservations/" + c + "/cancel", nil, 400,
				"No se puede cancelar la reserva " + c + ": su estado es EN CURSO; solo se cancelan reservas PENDIENTE."},
			{"photo without file_path", "POST", "/admin/reservations/" + p + "/photos", map[string]any{"description": "x"}, 400,
				"El campo file_path es obligatorio: indique la URL de la imagen."},
			{"photo with blank file_path", "POST", "/admin/reservations/" + p + "/photos", map[string]any{"file_path": "   "}, 400,
				"El campo file_path es obligatorio: indique la URL de la imagen."},
			{"photo javascript:", "POST", "/admin/reservations/" + p + "/photos", map[string]any{"file_path": "javascript:alert(1)"}, 400,
				"El campo file_path debe ser una URL absoluta http o https de la imagen, por ejemplo https://fotos.example.com/1234ABC-1.jpg."},
			{"photo data:", "POST", "/admin/reservations/" + p + "/photos", map[string]any{"file_path": "data:image/png;base64,AAAA"}, 400,
				"El campo file_path debe ser una URL absoluta http o https de la imagen, por ejemplo https://fotos.example.com/1234ABC-1.jpg."},
			{"photo relative", "POST", "/admin/reservations/" + p + "/photos", map[string]any{"file_path": "/uploads/a.jpg"}, 400,
				"El campo file_path debe ser una URL absoluta http o https de la imagen, por ejemplo https://fotos.example.com/1234ABC-1.jpg."},
			{"photo ftp", "POST", "/admin/reservations/" + p + "/photos", map[string]any{"file_path": "ftp://example.com/a.jpg"}, 400,
				"El campo file_path debe ser una URL absoluta http o https de la imagen, por ejemplo https://fotos.example.com/1234ABC-1.jpg."},
			{"start unknown", "PATCH", "/admin/reservations/999/start", nil, 404, "La reserva 999 no existe."},
			{"finalize unknown", "PATCH", "/admin/reservations/999/finalize", map[string]any{"paymentMethod": "TARJETA"}, 404, "La reserva 999 no existe."},
			{"cancel unknown", "PATCH", "/admin/reservations/999/cancel", nil, 404, "La reserva 999 no existe."},
			{"photo unknown", "POST", "/admin/reservations/999/photos", map[string]any{"file_path": "https://x.example/a.jpg"}, 404, "La reserva 999 no existe."},
			{"start bad id", "PATCH", "/admin/reservations/abc/start", nil, 404, `La reserva "abc" no existe.`},
			{"cancel zero id", "PATCH", "/admin/reservations/0/cancel", nil, 404, `La reserva "0" no existe.`},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				status, body := e.JSON(tc.method, tc.path, tc.body)
				webtest.WantMessage(t, status, body, tc.status, tc.message)
			})
		}
		long := map[string]any{"file_path": "https://x.example/a.jpg", "description": fmt.Sprintf("%0256d", 0)}
		status, body := e.JSON("POST", "/admin/reservations/"+p+"/photos", long)
		webtest.WantMessage(t, status, body, 400, "El campo description admite como máximo 255 caracteres.")

		// A photo accepted: 201 with the photo and the count.
		status, body = e.JSON("POST", "/admin/reservations/"+p+"/photos",
			map[string]any{"file_path": " HTTPS://fotos.example.com/a.jpg ", "description": fmt.Sprintf("%0255d", 0)})
		photo, _ := body["photo"].(map[string]any)
		if status != 201 || body["success"] != true || body["photo_count"] != 1.0 || photo["file_path"] != "HTTPS://fotos.example.com/a.jpg" ||
			photo["id_reservation"] != float64(pending) || photo["taken_at"] == nil {
			t.Errorf("photo: %d %v", status, body)
		}
		// Nothing of the refusals changed the reservations.
		if r := e.Stored(pending); r.Status != "PENDIENTE" || r.Spot == nil {
			t.Errorf("pending changed: %+v", r)
		}
		if r := e.Stored(inCourse); r.Status != "EN CURSO" || r.IsPaid {
			t.Errorf("in course changed: %+v", r)
		}
	})
}

// Spec: FINALIZADA and CANCELADA are terminal: no edits, no cancel, no photos, no
// status change.
func TestAdminTerminalStatesRefuseEverything(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		finalized := e.StartedReservation(1, "A-1")
		if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", finalized), map[string]any{"paymentMethod": "EFECTIVO"}); st != 200 {
			t.Fatalf("finalize: %d %v", st, b)
		}
		cancelled := e.WalkIn(webtest.WalkInFields(2, time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid), 2, "A-2"))
		e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/cancel", cancelled), nil)

		for _, tc := range []struct {
			id     int64
			status string
		}{{finalized, "FINALIZADA"}, {cancelled, "CANCELADA"}} {
			t.Run(tc.status, func(t *testing.T) {
				before := e.Stored(tc.id)
				p := fmt.Sprintf("/admin/reservations/%d", tc.id)
				st, b := e.JSON("PATCH", p+"/start", nil)
				webtest.WantMessage(t, st, b, 400, fmt.Sprintf("No se puede iniciar la reserva %d: su estado es %s y debe ser PENDIENTE.", tc.id, tc.status))
				st, b = e.JSON("PATCH", p+"/finalize", map[string]any{"paymentMethod": "TARJETA"})
				webtest.WantMessage(t, st, b, 400, fmt.Sprintf("No se puede finalizar la reserva %d: su estado es %s y debe ser EN CURSO.", tc.id, tc.status))
				st, b = e.JSON("PATCH", p+"/cancel", nil)
				webtest.WantMessage(t, st, b, 400, fmt.Sprintf("No se puede cancelar la reserva %d: su estado es %s; solo se cancelan reservas PENDIENTE.", tc.id, tc.status))
				st, b = e.JSON("POST", p+"/photos", map[string]any{"file_path": "https://x.example/a.jpg"})
				webtest.WantMessage(t, st, b, 400, fmt.Sprintf("No se pueden añadir fotos a la reserva %d: está %s.", tc.id, tc.status))
				for _, change := range []map[string]any{
					{"exit_date": "2027-04-01T10:00"}, {"full_name": "Otro"}, {"brand": "Seat"}, {"cod_parking_spot": "Z-9"},
					{"cod_parking_spot": ""}, {"additional_services": []int{1}}, {},
				} {
					st, b = e.JSON("POST", p+"/edit", change)
					webtest.WantMessage(t, st, b, 400, fmt.Sprintf("La reserva %d está %s: no admite cambios.", tc.id, tc.status))
				}
				// A browser form gets the refusal on the detail page.
				st, loc, _ := e.Form(p+"/edit", map[string][]string{"full_name": {"Otro"}})
				if st != 303 || loc != fmt.Sprintf("/admin/reservations/details/%d?error=La+reserva+%d+est%%C3%%A1+%s%%3A+no+admite+cambios.", tc.id, tc.id, tc.status) {
					t.Errorf("form edit: %d %s", st, loc)
				}
				if after := e.Stored(tc.id); !reflect.DeepEqual(after, before) {
					t.Errorf("terminal reservation changed:\n%+v\n%+v", before, after)
				}
			})
		}
	})
}

// Each transition is one conditional update: 20 staff clicking at once on one
// reservation, exactly one wins and the others are told why not.
func TestAdminConcurrentTransitions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		id := e.WalkIn(webtest.WalkInFields(1, time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid), 2, "A-1"))
		e.AddPhotos(id, 5)
		race := func(path string, body any) (ok, refused int) {
			const n = 20
			var wg sync.WaitGroup
			statuses := make(chan int, n)
			start := make(chan struct{})
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					st, _ := e.JSON("PATCH", path, body)
					statuses <- st
				}()
			}
			close(start)
			wg.Wait()
			close(statuses)
			for st := range statuses {
				switch st {
				case http.StatusOK:
					ok++
				case http.StatusBadRequest:
					refused++
				default:
					t.Errorf("%s: unexpected status %d", path, st)
				}
			}
			return ok, refused
		}
		if ok, refused := race(fmt.Sprintf("/admin/reservations/%d/start", id), nil); ok != 1 || refused != 19 {
			t.Errorf("start: %d succeeded, %d refused; want 1 and 19", ok, refused)
		}
		if ok, refused := race(fmt.Sprintf("/admin/reservations/%d/finalize", id), map[string]any{"paymentMethod": "TARJETA"}); ok != 1 || refused != 19 {
			t.Errorf("finalize: %d succeeded, %d refused; want 1 and 19", ok, refused)
		}
		other := e.WalkIn(webtest.WalkInFields(2, time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid), 2, "A-2"))
		if ok, refused := race(fmt.Sprintf("/admin/reservations/%d/cancel", other), nil); ok != 1 || refused != 19 {
			t.Errorf("cancel: %d succeeded, %d refused; want 1 and 19", ok, refused)
		}
		if r := e.Stored(id); r.Status != "FINALIZADA" || !r.IsPaid {
			t.Errorf("after the races: %+v", r)
		}
	})
}

// docs/errors.md#operation-responses: finalizing a reservation without exit date sets it to now and
// reprices the stay before it is paid.
func TestAdminFinalizeOpenExit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		now := e.A.Config.Clock()
		entry := now.Add(-73 * time.Hour).Truncate(time.Second)
		status, body := e.JSON("POST", "/admin/reservations/new", map[string]any{
			"phone": "600000001", "license_plate": "9999ZZZ", "vehicle_type": "COCHE", "id_main_service": 1,
			"entry_date": entry.Format(time.RFC3339), "cod_parking_spot": "E-1", "additional_services": []int{2},
		})
		if status != 201 || body["data"].(map[string]any)["total_price"] != 37.0 { // one day 12 € + interior wash 25 €
			t.Fatalf("walk-in: %d %v", status, body)
		}
		id := int64(body["data"].(map[string]any)["id_reservation"].(float64))
		e.AddPhotos(id, 5)
		e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil)
		status, body = e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", id), map[string]any{"paymentMethod": "EFECTIVO"})
		if status != 200 {
			t.Fatalf("finalize: %d %v", status, body)
		}
		r := e.Stored(id)
		// 73 hours: 3 days and 1 hour, inside the courtesy → 3 days × 12 € + 25 €.
		if r.Exit == nil || !r.Exit.Equal(now) || r.TotalPrice != 6100 || !r.IsPaid {
			t.Errorf("finalized: exit %v total %v paid %v; want now, 61.00, paid", r.Exit, r.TotalPrice, r.IsPaid)
		}
	})
}
