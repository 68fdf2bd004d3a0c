package booking

import (
	"context"
	"strings"
	"testing"
	"time"

	"parking/internal/fault"
	"parking/internal/store"
	"parking/internal/storetest"
)

// docs/dates.md#past-entries: a public booking's entry may be at most 15 minutes in the past (a
// customer booking at the gate); earlier is a 400 naming entry_date, nothing
// saved. A walk-in may start at any past time.
func TestPublicEntryNotInThePast(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		s, st, madrid := internalService(t, d)
		ctx := context.Background()
		now := time.Date(2026, 11, 21, 10, 0, 0, 0, madrid)
		s.now = func() time.Time { return now }

		book := func(ch Channel, entry time.Time, plate string) error {
			exit := entry.Add(48 * time.Hour)
			_, err := s.Create(ctx, ch, NewBooking{FullName: "Ana", Phone: "600111222", LicensePlate: plate,
				VehicleType: "COCHE", Entry: entry, Exit: &exit, MainService: 1})
			return err
		}
		if err := book(Public, now.Add(-PublicEntryGrace), "AA1111"); err != nil {
			t.Errorf("entry 15 minutes ago: %v", err)
		}
		err := book(Public, now.Add(-PublicEntryGrace-time.Minute), "BB2222")
		if fault.KindOf(err) != fault.Invalid || !strings.Contains(fault.MessageOf(err, ""), "entry_date") {
			t.Errorf("entry 16 minutes ago: %v, want a 400 naming entry_date", err)
		}
		var n int
		if err := st.DB().QueryRow(`SELECT COUNT(*) FROM vehicle WHERE license_plate = 'BB2222'`).Scan(&n); err != nil || n != 0 {
			t.Errorf("the refused booking saved its vehicle (%d, %v)", n, err)
		}
		if err := book(WalkIn, now.AddDate(0, 0, -3), "CC3333"); err != nil {
			t.Errorf("walk-in three days ago: %v", err)
		}
	})
}
