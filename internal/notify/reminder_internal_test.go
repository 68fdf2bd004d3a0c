package notify

import (
	"bytes"
	"testing"
	"time"

	"parking/internal/money"
	"parking/internal/reservation"
	"parking/internal/store"
)

// A booking's reminder row is taken from its confirmation's (reminderOf): its
// payload is exactly the one build gives the reminder, its type and due time its
// own, its delivery id another one.
func TestReminderOfConfirmation(t *testing.T) {
	email, phone, exit := "ana@example.com", "+34612345678", time.Date(2026, 12, 9, 18, 0, 0, 0, time.UTC)
	entry := time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)
	sub := store.NotificationSubject{
		Reservation: reservation.Reservation{ID: 42, Reference: "HQQSV79F", Entry: entry, Exit: &exit, Status: reservation.Pending,
			TotalPrice: money.Cents(7900), Language: "en",
			Contact: &reservation.Contact{FullName: "Ana Pérez", Email: &email, Phone: &phone}},
		Vehicle:         reservation.Vehicle{LicensePlate: "1234BCD", Brand: "Seat", Model: "Ibiza", Color: "Rojo", Type: "TURISMO"},
		MainServiceName: "ECO",
		Extras:          []reservation.BookedExtraDetail{{ID: 1, Name: "Lavado", Price: 1500}},
	}
	at := entry.AddDate(0, 0, -7)
	extra := Extra{ManageURL: "https://parking.example/reserva/HQQS-V79F?t=x", Facility: &FacilityData{Name: "Parking Aeropuerto"}}
	conf, err := build(BookingConfirmation, sub, nil, at, time.UTC, "https://parking.example", extra)
	if err != nil {
		t.Fatal(err)
	}
	want, err := build(BookingReminder, sub, nil, at, time.UTC, "https://parking.example", extra)
	if err != nil {
		t.Fatal(err)
	}
	c := store.NewNotification{ReservationID: 42, Type: string(BookingConfirmation), DeliveryID: newDeliveryID(), Payload: conf, Status: store.NotificationPending}
	due := entry.Add(-ReminderLead)
	r, ok := reminderOf(c, due)
	if !ok || !bytes.Equal(r.Payload, want) || r.Type != string(BookingReminder) || !r.DueAt.Equal(due) ||
		r.DeliveryID == c.DeliveryID || r.Status != c.Status || r.ReservationID != 42 {
		t.Fatalf("reminderOf = %+v (%v)\npayload %s\nwant    %s", r, ok, r.Payload, want)
	}
	if !bytes.Equal(c.Payload, conf) {
		t.Fatalf("the confirmation's payload changed: %s", c.Payload)
	}
	if _, ok := reminderOf(store.NewNotification{Payload: []byte(`{"idioma":"es"}`)}, due); ok {
		t.Fatal("a payload without the confirmation's type first was taken")
	}
}

// Delivery ids are version-7 UUIDs: time first, so that one taken later sorts after.
func TestDeliveryIDsAreTimeOrdered(t *testing.T) {
	a := newDeliveryID()
	b := newDeliveryID()
	if len(a) != 36 || a[14] != '7' || !bytes.ContainsAny([]byte{a[19]}, "89ab") || a == b {
		t.Fatalf("delivery ids %s, %s: want distinct version-7 UUIDs", a, b)
	}
	if a[:13] > b[:13] {
		t.Fatalf("delivery id %s taken after %s sorts before it", b, a)
	}
}
