package booking

import (
	"context"
	"errors"
	"slices"

	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/occupancy"
	"parking/internal/reservation"
	"parking/internal/settings"
	"parking/internal/store"
)

// Capacity (docs/capacity.md). Every operation that creates a reservation or changes its
// status or dates calls occupy in its own transaction, after writing the row, with
// the stay as it was and as it is: the ledger moves by the difference, and the days
// the change adds are checked against the limit of the channel.

// capacityCheck says which limit a change is held to.
type capacityCheck int

const (
	// noCheck: start, finalize and the cancels only free days or record a car that
	// is physically there; they are never refused for capacity.
	noCheck capacityCheck = iota
	// publicCheck: the public booking and the customer's edits sell up to the
	// sellable places (settings.Facility.SellableLimit).
	publicCheck
	// staffCheck: walk-ins and staff updates fill up to staffLimit, or beyond it
	// with an override (the car may already be at the gate).
	staffCheck
)

// staffLimit is how many places staff may fill on a day without an override: the
// capacity, or the sellable places when the operator sells more than the capacity
// (counting on turnover; staff are held to the same figure). Sellable places below
// the capacity are the public's quota: the rest is kept for staff. No capacity set:
// no limit for staff.
func staffLimit(f settings.Facility) int {
	if f.Capacity <= 0 {
		return 0
	}
	return max(f.Capacity, f.Sellable)
}

// stayOf is the part of a reservation the capacity rules read.
func stayOf(r reservation.Reservation) occupancy.Stay {
	st := occupancy.Stay{
		Active: r.Status == reservation.Pending || r.Status == reservation.InCourse,
		InCar:  r.Status == reservation.InCourse,
		Entry:  r.Entry,
		Exit:   r.Exit,
	}
	if r.Sale != nil {
		st.Partner = r.Sale.PartnerID
	}
	return st
}

// occupy moves reservation id's stay in the ledger from before to after (the zero
// Stay: none) and checks the days it adds. A change over the limit is refused with a
// Conflict carrying occupancy.FullError, unless override is set on a staff change: it
// is then kept and recorded on the reservation.
func (s *Service) occupy(ctx context.Context, tx *store.Tx, id int64, before, after occupancy.Stay, check capacityCheck, override bool) error {
	// The quote's copy of the occupancy is exact for this instance: dropped once the
	// change has committed, before the operation returns (availability_cache.go).
	tx.AfterCommit(s.quoteDays.drop)
	today := occupancy.DayOf(tx.Now, s.loc)
	// A partner's stay is held to its allotment first (allotment.go): the partner's
	// lock before the ledger's, in every change, so no two wait on each other.
	if after.Partner != 0 && check != noCheck && !(check == staffCheck && override) {
		if err := checkAllotment(ctx, tx, s.loc, before, after, today); err != nil {
			return err
		}
	}
	lb, la := occupancy.Ledgered(before, s.loc), occupancy.Ledgered(after, s.loc)
	c := store.OccupancyChange{
		Reservation: id,
		Release:     nonEmpty(lb.Minus(la)), Claim: nonEmpty(la.Minus(lb)),
		Today: today, TodayStart: today.Start(s.loc), Tomorrow: (today + 1).Start(s.loc),
	}
	// A new public stay is refused on a full day whatever follows: decided inside the
	// database on PostgreSQL, in the round trip of the COMMIT (the caller maps the
	// refusal with overLimit).
	c.Final = check == publicCheck && before == (occupancy.Stay{})
	switch check {
	case publicCheck:
		// The store reads the sellable places in the transaction itself: on
		// PostgreSQL in the same round trip as the claim of a new stay.
		c.SellableLimit = true
	case staffCheck:
		f, err := tx.Catalog().Facility(ctx)
		if err != nil {
			return err
		}
		c.Limit = staffLimit(f)
	}
	if c.SellableLimit || c.Limit > 0 {
		// The days the change adds, from today on: the past cannot be sold.
		added := minusAll(occupancy.Occupied(after, s.loc, today), occupancy.Occupied(before, s.loc, today))
		for _, sp := range added {
			if sp.Last >= today {
				c.Check = append(c.Check, occupancy.Span{First: max(sp.First, today), Last: sp.Last})
			}
		}
	}
	over, err := tx.Occupancy().ApplyOccupancy(ctx, c)
	if err != nil || len(over) == 0 {
		return err
	}
	if check == staffCheck && override {
		// Recorded with the reservation and in the trail, naming the full days.
		if err := tx.Occupancy().SetCapacityOverride(ctx, id); err != nil {
			return err
		}
		return auditReservation(ctx, tx, audit.ActionOverCapacity, id, nil, audit.F("full_days", occupancy.Spanish(over)))
	}
	return fullDays(over)
}

// fullDays is the refusal naming the days over the limit (docs/capacity.md#refusals);
// its cause carries them for the answer's full_days.
func fullDays(over []occupancy.Day) error {
	days := make(i18n.Days, len(over))
	for i, d := range over {
		days[i] = d.Date()
	}
	code := "err.booking.full_days"
	if len(over) == 1 {
		code = "err.booking.full_day"
	}
	return coded(fault.Conflict, &occupancy.FullError{Days: over}, code, "Days", days)
}

// overLimit turns a final claim refused inside the database (store.OverLimitError,
// the transaction's error) into the refusal naming the full days.
func overLimit(err error) error {
	var over *store.OverLimitError
	if errors.As(err, &over) {
		return fullDays(over.Days)
	}
	return err
}

func nonEmpty(spans []occupancy.Span) []occupancy.Span {
	return slices.DeleteFunc(spans, occupancy.Span.Empty)
}

// minusAll is the days of a that are in no span of b.
func minusAll(a, b []occupancy.Span) []occupancy.Span {
	out := nonEmpty(slices.Clone(a))
	for _, t := range b {
		var next []occupancy.Span
		for _, sp := range out {
			next = append(next, sp.Minus(t)...)
		}
		out = next
	}
	return out
}
