package notify_test

import (
	"encoding/json"
	"testing"

	"parking/internal/notify"
	"parking/internal/reservation"
)

// docs/notifications.md#recipient: cliente (and the invoice's customer) is the reservation's contact,
// falling back to the customer's data only for a reservation without one.
func TestPayloadClienteIsTheContact(t *testing.T) {
	sub := subject()
	sub.Reservation.Contact = &reservation.Contact{FullName: "Pedro Gómez", Email: ptr("pedro@example.com"), Phone: ptr("600111222")}
	for _, kind := range []notify.Kind{notify.BookingConfirmation, notify.VehicleEntry, notify.Invoice} {
		body, err := notify.Build(kind, sub, nil, sub.Reservation.Entry, madrid)
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Cliente  map[string]string `json:"cliente"`
			Customer map[string]string `json:"customer"`
		}
		if err := json.Unmarshal(body, &p); err != nil {
			t.Fatal(err)
		}
		if kind == notify.Invoice {
			if p.Customer["full_name"] != "Pedro Gómez" || p.Customer["email"] != "pedro@example.com" {
				t.Errorf("%s customer = %v, want the contact", kind, p.Customer)
			}
			continue
		}
		if p.Cliente["nombre"] != "Pedro Gómez" || p.Cliente["email"] != "pedro@example.com" || p.Cliente["telefono"] != "600111222" {
			t.Errorf("%s cliente = %v, want the contact", kind, p.Cliente)
		}
	}
	// A contact typed without an email does not borrow the customer's.
	sub.Reservation.Contact.Email = nil
	body, err := notify.Build(notify.BookingConfirmation, sub, nil, sub.Reservation.Entry, madrid)
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Cliente map[string]string `json:"cliente"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	if p.Cliente["email"] != "" {
		t.Errorf("cliente email = %q, want none", p.Cliente["email"])
	}
}
