package notify_test

import (
	"strings"
	"testing"
	"time"

	"parking/internal/notify"
)

// docs/manage-booking.md#the-reminder-the-day-before-booking_reminder: the reminder is the booking-confirmation shape plus the manage
// link and the facility from the settings; the password reset carries the
// account's name and email and the link. The golden files also give the n8n
// workflow's test (n8n_workflow_test.go) the fields these types carry.
func TestGoldenReminderAndPasswordReset(t *testing.T) {
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, madrid)
	body, err := notify.BuildWith(notify.BookingReminder, subject(), nil, at, madrid, "https://parking.example", notify.Extra{
		ManageURL: "https://parking.example/reserva/K7Q2-M9XD?t=token",
		Facility:  &notify.FacilityData{Name: "Parking Aeropuerto Sur", Address: "Calle de la Terminal 4, 28042 Madrid", Phone: "+34 910 000 000"},
	})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "booking_reminder", body)
	checkTypes(t, body, map[string]string{"type": "string", "manage_url": "string", "facility.name": "string",
		"facility.address": "string", "facility.phone": "string", "reserva.referencia": "string", "cliente.email": "string"})

	// The row keeps the link sealed; the golden file is the body the webhook gets.
	sealer := notify.NewSealer([]byte("test-secret-key-0123456789"))
	link := "https://parking.example/users/password/reset?token=abc"
	stored, err := notify.Encode(notify.PasswordReset, notify.PasswordResetData{Type: notify.PasswordReset, Idioma: "de",
		Cliente: notify.ResetCliente{Nombre: "Ana Pérez", Email: "ana@example.com"}, ResetURL: sealer.Seal(link)})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(stored), "reset?token=") || !notify.HasSealed(stored) {
		t.Errorf("stored password_reset shows its link: %s", stored)
	}
	if body, err = sealer.Unseal(stored); err != nil {
		t.Fatal(err)
	}
	golden(t, "password_reset", body)
	checkTypes(t, body, map[string]string{"type": "string", "cliente.nombre": "string", "cliente.email": "string", "reset_url": "string"})
}
