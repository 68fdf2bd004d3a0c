package notify_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"parking/internal/settings"

	"parking/internal/money"
	"parking/internal/notify"
	"parking/internal/reservation"
	"parking/internal/store"
)

var update = flag.Bool("update", false, "rewrite the golden payload files")

var madrid, _ = time.LoadLocation("Europe/Madrid")

func ptr[T any](v T) *T { return &v }

// subject is a fixed reservation: 5 charged days of ECO (8 €/day) for an SUV
// (× 1.25) = 50 €, plus one wash at 15 €.
func subject() store.NotificationSubject {
	entry := time.Date(2026, 12, 1, 10, 0, 0, 0, madrid)
	exit := time.Date(2026, 12, 5, 13, 0, 0, 0, madrid)
	return store.NotificationSubject{
		Reservation: reservation.Reservation{
			ID: 42, Reference: "K7Q2M9XD", Entry: entry, Exit: &exit, Status: reservation.Pending, TotalPrice: 6500,
			CustomerID: 7, VehicleID: 9, MainServiceID: 1,
		},
		Customer:        reservation.Customer{ID: 7, FullName: "Ana Pérez", Phone: ptr("600111222"), Email: ptr("ana@example.com")},
		Vehicle:         reservation.Vehicle{ID: 9, LicensePlate: "1234ABC", Brand: "Seat", Model: "Ateca", Color: "Rojo", Type: "SUV"},
		MainServiceName: "ECO",
		Extras:          []reservation.BookedExtraDetail{{ID: 1, Name: "Lavado básico", Price: 1500}},
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".json")
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, got, "", "  "); err != nil {
		t.Fatalf("payload is not JSON: %v\n%s", err, got)
	}
	pretty.WriteByte('\n')
	if *update {
		if err := os.WriteFile(path, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (go test -run Golden -update writes it): %v", err)
	}
	if !bytes.Equal(pretty.Bytes(), want) {
		t.Errorf("payload differs from %s:\ngot:\n%s\nwant:\n%s", path, pretty.Bytes(), want)
	}
}

// checkTypes asserts the JSON type of every listed path, so that a field that turns
// from string into number (or disappears) fails even if the golden file is rewritten.
func checkTypes(t *testing.T, body []byte, want map[string]string) {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	for path, typ := range want {
		v, ok := lookup(doc, path)
		if !ok {
			t.Errorf("%s missing", path)
			continue
		}
		if got := jsonType(v); got != typ {
			t.Errorf("%s is %s (%v), want %s", path, got, v, typ)
		}
	}
}

func lookup(doc map[string]any, path string) (any, bool) {
	var cur any = doc
	for _, part := range splitPath(path) {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[part]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func splitPath(p string) []string {
	var out []string
	start := 0
	for i := 0; i < len(p); i++ {
		if p[i] == '.' {
			out = append(out, p[start:i])
			start = i + 1
		}
	}
	return append(out, p[start:])
}

func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "?"
}

var nestedTypes = map[string]string{
	"type":           "string",
	"cliente.nombre": "string", "cliente.email": "string", "cliente.telefono": "string",
	"reserva.id_reservation": "string", "reserva.matricula": "string", "reserva.fecha_entrada": "string",
	"reserva.fecha_salida": "string", "reserva.precio_total": "string", "reserva.hora_entrada": "string",
	"reserva.is_paid": "boolean",
	"vehicle.brand":   "string", "vehicle.model": "string", "vehicle.color": "string",
	"main_service.name": "string", "main_service.price": "number",
	"additional_services": "array",
}

func TestGoldenBookingConfirmation(t *testing.T) {
	// docs/notifications.md#arrival: the facility and the QR code come with it.
	f := notify.FacilityFromSettings(settings.Facility{Name: "Parking Aeropuerto Sur", Address: "Calle de la Terminal 4, 28042 Madrid",
		Phone: "+34 910 000 000", Arrival: settings.Texts{ES: "Siga las señales P2 y aparque en la zona de recepción."}})
	body, err := notify.BuildWith(notify.BookingConfirmation, subject(), nil, time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC), madrid,
		"https://parking.example", notify.Extra{ManageURL: "https://parking.example/reserva/K7Q2-M9XD?t=token", Facility: &f})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "booking_confirmation", body)
	checkTypes(t, body, arrivalTypes())
	checkLine(t, body, "additional_services")
	if bytes.Contains(body, []byte(`"original"`)) {
		t.Errorf("booking_confirmation carries original: %s", body)
	}
}

func TestGoldenVehicleEntry(t *testing.T) {
	sub := subject()
	sub.Reservation.Status = reservation.InCourse
	sub.Reservation.KeysHandedOver = true
	// Received at 10:07 Madrid time (09:07 UTC): hora_entrada is the check-in time;
	// llaves and the entry document's link come with it (docs/entry-document.md).
	link := "https://parking.example/reserva/K7Q2-M9XD/justificante?t=abc.def"
	body, err := notify.BuildWith(notify.VehicleEntry, sub, nil, time.Date(2026, 12, 1, 9, 7, 30, 0, time.UTC), madrid, "https://parking.example",
		notify.Extra{JustificanteURL: link})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "vehicle_entry", body)
	types := map[string]string{"llaves": "boolean", "justificante_url": "string"}
	for k, v := range nestedTypes {
		types[k] = v
	}
	checkTypes(t, body, types)

	// Keys not handed over: llaves is false, never left out.
	sub.Reservation.KeysHandedOver = false
	body, err = notify.Build(notify.VehicleEntry, sub, nil, builtAt, madrid)
	if err != nil || !bytes.Contains(body, []byte(`"llaves":false`)) {
		t.Errorf("vehicle_entry without keys: %v %s", err, body)
	}
	// The other kinds carry neither.
	body, _ = notify.BuildWith(notify.BookingConfirmation, sub, nil, builtAt, madrid, "", notify.Extra{JustificanteURL: link})
	if bytes.Contains(body, []byte(`"llaves"`)) || bytes.Contains(body, []byte(`justificante_url`)) {
		t.Errorf("booking_confirmation carries the entry's fields: %s", body)
	}
}

func TestGoldenReservationModified(t *testing.T) {
	before := subject()
	after := subject()
	exit := time.Date(2026, 12, 8, 9, 0, 0, 0, madrid)
	after.Reservation.Exit = &exit // 7 days: 7 × 8 € × 1.25 = 70 €, no extras
	after.Reservation.TotalPrice = 7000
	after.Extras = nil
	if _, err := notify.Build(notify.ReservationModified, after, nil, builtAt, madrid); err == nil {
		t.Fatal("reservation_modified without the original: no error")
	}
	body, err := notify.Build(notify.ReservationModified, after, &before, time.Date(2026, 11, 25, 18, 0, 0, 0, time.UTC), madrid)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "reservation_modified", body)
	types := map[string]string{
		"original": "object", "original.fecha_entrada": "string", "original.fecha_salida": "string",
		"original.precio_total": "string", "original.main_service.name": "string",
		"original.main_service.price": "number", "original.additional_services": "array",
	}
	for k, v := range nestedTypes {
		types[k] = v
	}
	checkTypes(t, body, types)
	checkLine(t, body, "original.additional_services")
}

func TestGoldenInvoice(t *testing.T) {
	invoiceTypes := map[string]string{
		"type": "string", "id_reservation": "number",
		"customer.full_name": "string", "customer.email": "string",
		"license_plate": "string", "vehicle_brand": "string", "vehicle_model": "string",
		"main_service_name": "string", "total_price": "number", "exceso": "number", "is_paid": "boolean",
		"status": "string", "additional_services": "array",
	}
	t.Run("paid", func(t *testing.T) {
		sub := subject()
		sub.Reservation.Status = reservation.Finalized
		sub.Reservation.IsPaid = true
		sub.Reservation.PaymentMethod = ptr(reservation.Card)
		sub.ReceiptNumber = "F2026-000042" // docs/receipts.md#the-invoice-notification: issued at finalize
		body, err := notify.Build(notify.Invoice, sub, nil, builtAt, madrid)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "invoice_paid", body)
		types := map[string]string{"payment_method": "string", "numero_factura": "string", "receipt_url": "string"}
		for k, v := range invoiceTypes {
			types[k] = v
		}
		checkTypes(t, body, types)
		checkLine(t, body, "additional_services")
	})
	// A late car charged its real stay (docs/exit.md#overstay): exceso is what
	// that added to the booked price.
	t.Run("overstay", func(t *testing.T) {
		sub := subject()
		sub.Reservation.Status, sub.Reservation.IsPaid = reservation.Finalized, true
		sub.Reservation.PaymentMethod = ptr(reservation.Cash)
		bookedExit := *sub.Reservation.Exit
		exit := bookedExit.Add(3 * 24 * time.Hour)
		sub.Reservation.Exit, sub.Reservation.BookedExit = &exit, &bookedExit
		sub.Reservation.BookedPrice, sub.Reservation.TotalPrice = ptr(money.Cents(6500)), 9500
		sub.ReceiptNumber = "F2026-000043"
		body, err := notify.Build(notify.Invoice, sub, nil, builtAt, madrid)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "invoice_overstay", body)
		var doc struct {
			Exceso json.Number `json:"exceso"`
			Total  json.Number `json:"total_price"`
		}
		if err := json.Unmarshal(body, &doc); err != nil || doc.Exceso != "30.00" || doc.Total != "95.00" {
			t.Errorf("exceso %s, total %s (%v): want 30.00 of 95.00", doc.Exceso, doc.Total, err)
		}
	})
	t.Run("pending", func(t *testing.T) {
		body, err := notify.Build(notify.Invoice, subject(), nil, builtAt, madrid)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "invoice_pending", body)
		types := map[string]string{"payment_method": "null", "numero_factura": "null", "receipt_url": "null"}
		for k, v := range invoiceTypes {
			types[k] = v
		}
		checkTypes(t, body, types)
	})
}

// checkLine asserts the items of a service list are {name: string, price: number}.
func checkLine(t *testing.T, body []byte, path string) {
	t.Helper()
	var doc map[string]any
	_ = json.Unmarshal(body, &doc)
	v, _ := lookup(doc, path)
	items, _ := v.([]any)
	if len(items) == 0 {
		t.Fatalf("%s is empty", path)
	}
	for _, it := range items {
		m, _ := it.(map[string]any)
		if jsonType(m["name"]) != "string" || jsonType(m["price"]) != "number" || len(m) != 2 {
			t.Errorf("%s item = %v, want {name: string, price: number}", path, it)
		}
	}
}

// An open exit (a walk-in) keeps fecha_salida a string.
func TestBuildOpenExit(t *testing.T) {
	sub := subject()
	sub.Reservation.Exit = nil
	body, err := notify.Build(notify.BookingConfirmation, sub, nil, builtAt, madrid)
	if err != nil {
		t.Fatal(err)
	}
	checkTypes(t, body, map[string]string{"reserva.fecha_salida": "string"})
	if !bytes.Contains(body, []byte(`"fecha_salida":""`)) {
		t.Errorf("fecha_salida of an open exit: %s", body)
	}
}

func TestBasePrice(t *testing.T) {
	if got := notify.BasePrice(subject()); got != money.Cents(5000) {
		t.Errorf("base = %v, want 50.00 (65.00 total less 15.00 of extras)", got)
	}
}

// builtAt is the instant the payloads of these tests are built at.
var builtAt = time.Date(2026, 11, 25, 18, 0, 0, 0, time.UTC)
