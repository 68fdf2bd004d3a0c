package booking_test

import (
	"context"
	"testing"

	"parking/internal/booking"
	"parking/internal/store"
	"parking/internal/storetest"
)

// A public booking with every feature on (capacity set, an Idempotency-Key, privacy
// consent, an additional service, the reminder and the audit row) is two round trips
// of its transaction on PostgreSQL
// (docs/performance.md#the-public-booking-in-two-round-trips): BEGIN, the key's read,
// the reservation's id and the booker; the reservation, its service, its consents, its
// notifications, its audit row and its key, queued, with the ledger's claim and the
// COMMIT. The first booking of the days takes the ledger's exact path (their rows do
// not exist yet), inside the database too; the next ones the fast path.
func TestPublicBookingRoundTrips(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		if d != store.Postgres {
			t.Skip("round trips are PostgreSQL's: SQLite runs in the process")
		}
		svc, st, _ := capacityService(t, d, 1000, 0)
		ctx := context.Background()
		for n := 1; n <= 3; n++ {
			b := stayBooking(n, 5, 9)
			b.Email, b.Extras, b.PrivacyAck = "c@example.com", []int64{1}, true
			before := st.RoundTrips()
			c, _, err := svc.CreateOnce(ctx, once("trips-"+b.Phone, "h"), func(opts ...booking.CreateOption) (booking.Created, error) {
				return svc.Create(ctx, booking.Public, b, opts...)
			})
			if err != nil {
				t.Fatal(err)
			}
			if trips := st.RoundTrips() - before; trips != 2 {
				t.Errorf("booking %d (reservation %d): %d round trips, want 2", n, c.Reservation.ID, trips)
			}
		}
		var rows int
		if err := st.DB().QueryRow(`SELECT (SELECT COUNT(*) FROM reservation WHERE privacy_ack_at IS NOT NULL)
			+ (SELECT COUNT(*) FROM reservation_additional_service) + (SELECT COUNT(*) FROM idempotency_key)
			+ (SELECT COUNT(*) FROM audit_entry WHERE reservation_id IS NOT NULL)`).Scan(&rows); err != nil || rows != 12 {
			t.Fatalf("%d rows of the three bookings (consents, services, keys, audit), want 12 (%v)", rows, err)
		}
	})
}
