package ui_test

import (
	"fmt"
	"testing"
	"time"

	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// GET /admin/reservations/details/{id}: the full record of the spec with the lists
// the edit form needs (docs/admin.md#history); the notification history is the reservation's
// outbox rows (docs/notifications.md#delivery).
func TestAdminDetail(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		b := webtest.WalkInFields(1, time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid), 3, "A-1")
		b["email"], b["brand"], b["model"], b["color"], b["additional_services"], b["notes"] = "c1@example.com", "Seat", "Ibiza", "Azul", []int{2, 1}, "VIP"
		id := e.WalkIn(b)
		e.AddPhotos(id, 2)
		status, body := e.JSON("GET", fmt.Sprintf("/admin/reservations/details/%d", id), nil)
		if status != 200 {
			t.Fatalf("detail: %d %v", status, body)
		}
		r := body["reservation"].(map[string]any)
		if r["id_reservation"] != float64(id) || r["status"] != "PENDIENTE" || r["main_service_name"] != "ECO" || r["cod_parking_spot"] != "A-1" ||
			r["total_price"] != 76.0 || r["notes"] != "VIP" || r["payment_method"] != nil || r["is_paid"] != false {
			t.Errorf("reservation: %v", r)
		}
		if got := fmt.Sprint(r["additional_services"]); got != "[map[id:1 name:Lavado básico price:15] map[id:2 name:Lavado interior price:25]]" {
			t.Errorf("selected additional services: %s", got)
		}
		if got := fmt.Sprint(body["customer"]); got != "map[email:c1@example.com full_name:Cliente 1 id_customer:2 phone:+34600000001 type:NO-REGISTRADO]" {
			t.Errorf("customer: %s", got)
		}
		if got := fmt.Sprint(body["vehicle"]); got != "map[brand:Seat color:Azul id_vehicle:1 license_plate:0001BCD model:Ibiza type:COCHE]" {
			t.Errorf("vehicle: %s", got)
		}
		photos := body["photos"].([]any)
		if body["photo_count"] != 2.0 || len(photos) != 2 || photos[0].(map[string]any)["file_path"] != fmt.Sprintf("https://fotos.example.com/%d-0.jpg", id) {
			t.Errorf("photos: %v %v", body["photo_count"], photos)
		}
		if ref, _ := r["reference"].(string); len(ref) != 9 || ref[4] != '-' {
			t.Errorf("reservation.reference = %v, want XXXX-XXXX (docs/manage-booking.md#booking-reference)", r["reference"])
		}
		// The walk-in's booking confirmation, recorded and not sent (no webhook in
		// tests), and its reminder the day before (docs/manage-booking.md#the-reminder-the-day-before-booking_reminder; recorded alike).
		notes := body["notifications"].([]any)
		if len(notes) != 2 || notes[1].(map[string]any)["type"] != "booking_reminder" {
			t.Fatalf("notifications: %v", notes)
		}
		n := notes[0].(map[string]any)
		if n["type"] != "booking_confirmation" || n["status"] != "skipped" || n["attempts"] != 0.0 || n["sent_at"] != nil ||
			n["id"] == nil || n["created_at"] == nil || n["last_error"] == nil {
			t.Errorf("notification: %v", n)
		}
		if len(body["vehicle_types"].([]any)) != 9 || len(body["main_services"].([]any)) != 3 || len(body["additional_services"].([]any)) != 8 {
			t.Errorf("lists: %v %v %v", body["vehicle_types"], body["main_services"], body["additional_services"])
		}

		status, body = e.JSON("GET", "/admin/reservations/details/999", nil)
		webtest.WantMessage(t, status, body, 404, "La reserva 999 no existe.")
		status, body = e.JSON("GET", "/admin/reservations/details/x1", nil)
		webtest.WantMessage(t, status, body, 404, `La reserva "x1" no existe.`)

		// The walk-in form's data.
		status, body = e.JSON("GET", "/admin/reservations/new", nil)
		if status != 200 || len(body["main_services"].([]any)) != 3 || len(body["vehicle_types"].([]any)) != 9 || body["entry_date"] == nil {
			t.Errorf("walk-in form: %d %v", status, body)
		}
	})
}

// POST /admin/reservations/new (docs/admin.md#walk-in): form or JSON; entry
// defaults to now, an open exit is priced for one day; 400 for a blank phone, a
// blank plate, or a plate registered with another vehicle type; nothing is saved.
func TestAdminWalkIn(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		st, _, text := e.Send("POST", "/admin/reservations/new", "application/x-www-form-urlencoded",
			"phone=611000000&full_name=Mostrador&license_plate=+7777kkk+&vehicle_type=moto&id_main_service=3&additional_services=5&additional_services=5&cod_parking_spot=m-1")
		if st != 201 {
			t.Fatalf("form walk-in: %d %s", st, text)
		}
		r := e.Stored(1)
		// MEET one day 18 € × 0.5 + Repostaje 15 €; entry now, exit open.
		if r.TotalPrice != 2400 || r.Exit != nil || !r.Entry.Equal(e.A.Config.Clock()) || *r.Spot != "M-1" {
			t.Errorf("walk-in stored %+v", r)
		}
		for _, tc := range []struct {
			body map[string]any
			msg  string
		}{
			{map[string]any{"phone": " ", "license_plate": "1", "vehicle_type": "COCHE", "id_main_service": 1}, "Faltan datos obligatorios: el teléfono (phone) es obligatorio."},
			{map[string]any{"phone": "1", "license_plate": "", "vehicle_type": "COCHE", "id_main_service": 1}, "Faltan datos obligatorios: la matrícula (license_plate) es obligatoria."},
			{map[string]any{"phone": "612345678", "license_plate": "7777KKK", "vehicle_type": "COCHE", "id_main_service": 1}, "La matrícula 7777KKK ya está registrada con el tipo de vehículo MOTO."},
			{map[string]any{"phone": "612345678", "license_plate": "A1", "id_main_service": 1}, "El tipo de vehículo es obligatorio."},
			{map[string]any{"phone": "612345678", "license_plate": "A1", "vehicle_type": "COCHE"}, "El servicio principal es obligatorio."},
			{map[string]any{"phone": "612345678", "license_plate": "A1", "vehicle_type": "COCHE", "id_main_service": 1, "entry_date": "2027-01-02", "exit_date": "2027-01-01"},
				"La fecha de salida (01/01/2027, 00:00:00) debe ser posterior a la fecha de entrada (02/01/2027, 00:00:00)."},
			{map[string]any{"phone": "612345678", "license_plate": "A1", "vehicle_type": "COCHE", "id_main_service": 1, "cod_parking_spot": "123456789012345678901"},
				"El campo cod_parking_spot admite como máximo 20 caracteres."},
		} {
			status, body := e.JSON("POST", "/admin/reservations/new", tc.body)
			webtest.WantMessage(t, status, body, 400, tc.msg)
		}
		if webtest.Count(t, e.A, "reservation") != 1 || webtest.Count(t, e.A, "vehicle") != 1 {
			t.Error("a refused walk-in saved something")
		}
	})
}
