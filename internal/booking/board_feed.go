package booking

import (
	"time"

	"parking/internal/feed"
	"parking/internal/ops"
	"parking/internal/reservation"
	"parking/internal/store"
)

// reporter tells, once an operation's transaction has committed, who follows the
// reservations: the live parking board (here and, through the announcements, on the
// other instances) and the metrics (events.go). Its feed's zero value is ready.
type reporter struct {
	// feed carries parking-board changes to the live page (GET /admin/parking/events).
	feed   feed.Broker
	now    func() time.Time
	store  *store.Store
	shared *ops.Announcer
	events Events
}

// ParkingFeed is the broker of parking-board changes. Operations publish to it after
// their transaction commits; the app closes it on shutdown to end open streams.
func (s *Service) ParkingFeed() *feed.Broker { return &s.report.feed }

// publishParking tells the live board about a committed change of r's spot or state.
// previous is the spot before the change.
// Several instances on one PostgreSQL: this instance's streams get it at once, the
// others' through the database (shared.go).
func (s *reporter) publishParking(kind feed.Kind, r reservation.Reservation, previous *string) {
	at := s.now()
	s.feed.Publish(feed.Event{
		Kind: kind, ReservationID: r.ID, Status: string(r.Status), Spot: r.Spot, PreviousSpot: previous, At: at,
	})
	if s.store.Shared() {
		s.shared.Announce(ops.Signal{Type: ops.SignalBoard, Kind: string(kind), ReservationID: r.ID, Status: string(r.Status),
			Spot: r.Spot, PreviousSpot: previous, At: at})
	}
}

// ArrivalPublisher is what tells the live board, here and on the other instances,
// that a gate camera saw a car arrive (docs/gate.md#arrival): internal/gate calls it
// after the arrival's transaction committed. (A function, not a method: the
// Service's methods are its operations.)
func ArrivalPublisher(s *Service) func(reservation.Reservation) {
	return func(r reservation.Reservation) { s.report.publishParking(feed.Arrived, r, r.Spot) }
}

// sameSpot compares two optional spot codes.
func sameSpot(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}
