package notify_test

import (
	"encoding/json"
	"testing"

	"parking/internal/notify"
	"parking/internal/settings"
)

// arrivalTypes are the nested payload's fields plus what the confirmation and the
// reminder add for the arrival (docs/notifications.md#arrival).
func arrivalTypes() map[string]string {
	out := map[string]string{"manage_url": "string", "qr_url": "string", "facility.name": "string", "facility.address": "string",
		"facility.phone": "string", "facility.map_url": "string", "facility.arrival_instructions": "string"}
	for k, v := range nestedTypes {
		out[k] = v
	}
	return out
}

// The confirmation and the reminder carry the facility (name, address, phone, map
// link, arrival instructions in the booking's language, else Spanish) and the QR
// code's link; the other kinds carry neither.
func TestArrivalInPayloads(t *testing.T) {
	f := notify.FacilityFromSettings(settings.Facility{Address: "Calle de la Terminal 4, Madrid", Phone: "+34 910 000 000",
		Arrival: settings.Texts{ES: "Siga la P2.", EN: "Follow signs to P2."}})
	for _, c := range []struct {
		kind             notify.Kind
		lang, want, name string
	}{
		{notify.BookingConfirmation, "en", "Follow signs to P2.", settings.DefaultName},
		{notify.BookingReminder, "de", "Siga la P2.", settings.DefaultName},
		{notify.BookingConfirmation, "es", "Siga la P2.", settings.DefaultName},
	} {
		sub := subject()
		sub.Reservation.Language = c.lang
		body, err := notify.BuildWith(c.kind, sub, nil, builtAt, madrid, "https://parking.example/", notify.Extra{Facility: &f})
		if err != nil {
			t.Fatal(err)
		}
		var p notify.Nested
		if err := json.Unmarshal(body, &p); err != nil {
			t.Fatal(err)
		}
		if p.Facility == nil || p.Facility.ArrivalInstructions != c.want || p.Facility.Name != c.name ||
			p.Facility.MapURL != "https://www.google.com/maps/search/?api=1&query=Calle+de+la+Terminal+4%2C+Madrid" {
			t.Errorf("%s in %s: facility %+v", c.kind, c.lang, p.Facility)
		}
		if p.QRURL != "https://parking.example/r/K7Q2-M9XD/qr.png" {
			t.Errorf("%s: qr_url %q", c.kind, p.QRURL)
		}
	}
	body, err := notify.BuildWith(notify.VehicleEntry, subject(), nil, builtAt, madrid, "https://parking.example", notify.Extra{Facility: &f})
	if err != nil {
		t.Fatal(err)
	}
	var p notify.Nested
	if err := json.Unmarshal(body, &p); err != nil || p.Facility != nil || p.QRURL != "" {
		t.Errorf("vehicle_entry carries the arrival: %v %s", err, body)
	}
}
