package booking

import (
	"parking/internal/fault"
	"parking/internal/reservation"
)

// Events is told what the operations did, for the service's metrics
// (internal/metrics implements it). The operations call it after their
// transaction has committed (or failed), never inside it; it must not block.
type Events interface {
	// BookingCreated: a booking was made through channel (web, counter, partner:<id>:
	// docs/partners.md#channels).
	BookingCreated(channel string)
	// BookingRefused: a booking attempt through channel failed, for reason (the
	// fault kind: "invalid", "conflict", "unavailable", "error"…).
	BookingRefused(channel, reason string)
	// StatusChanged: a reservation moved between two states (from is "" for a new
	// reservation).
	StatusChanged(from, to string)
}

// WithEvents sets who is told of bookings and state changes (the metrics).
func WithEvents(e Events) Option { return func(s *Service) { s.events = e } }

// noEvents is the default: nobody listens.
type noEvents struct{}

func (noEvents) BookingCreated(string)         {}
func (noEvents) BookingRefused(string, string) {}
func (noEvents) StatusChanged(string, string)  {}

// channelName is a booking's channel, its label in the metrics (docs/partners.md#channels).
func channelName(ch Channel, in NewBooking) string {
	switch {
	case in.Sale != nil:
		return reservation.PartnerChannel(in.Sale.PartnerID)
	case ch == WalkIn:
		return reservation.ChannelCounter
	}
	return reservation.ChannelWeb
}

// refusalReason names why an operation failed, by its fault kind.
func refusalReason(err error) string {
	switch fault.KindOf(err) {
	case fault.Invalid:
		return "invalid"
	case fault.NotFound:
		return "not_found"
	case fault.Forbidden:
		return "forbidden"
	case fault.Unauthorized:
		return "unauthorized"
	case fault.Conflict:
		return "conflict"
	case fault.TooMany:
		return "too_many"
	case fault.Unprocessable:
		return "unprocessable"
	case fault.Unavailable:
		return "unavailable"
	default:
		return "error"
	}
}

// moved reports a committed state change to the events.
func (s *reporter) moved(from, to reservation.Status) {
	s.events.StatusChanged(string(from), string(to))
}
