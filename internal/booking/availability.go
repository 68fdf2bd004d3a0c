package booking

import (
	"context"
	"fmt"
	"time"

	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/occupancy"
	"parking/internal/settings"
)

// MaxAvailabilityDays is the longest range GET /api/availability answers (docs/capacity.md#seeing-it).
const MaxAvailabilityDays = 92

// DayAvailability is one day's occupancy: Booked counts every stay on it (ledger and
// open stays), Limit is the sellable places (0: unlimited).
type DayAvailability struct {
	Day    occupancy.Day
	Status occupancy.Status
	Booked int
	Limit  int
}

// Free is the places still sellable (never below 0); meaningless when Limit is 0.
func (d DayAvailability) Free() int { return max(d.Limit-d.Booked, 0) }

// Availability is the occupancy of a range of days with the settings it was read with.
type Availability struct {
	From, To occupancy.Day
	Facility settings.Facility
	Days     []DayAvailability
}

// ParseAvailabilityRange reads the from and to of an availability request
// (YYYY-MM-DD, both included, at most MaxAvailabilityDays): a 400 naming the field
// otherwise.
func ParseAvailabilityRange(from, to string) (occupancy.Span, error) {
	f, err := occupancy.ParseDay(from)
	if err != nil {
		return occupancy.Span{}, fault.Coded(fault.Invalid, "err.booking.day", "Field", i18n.FieldName("from"), "Value", from)
	}
	t, err := occupancy.ParseDay(to)
	if err != nil {
		return occupancy.Span{}, fault.Coded(fault.Invalid, "err.booking.day", "Field", i18n.FieldName("to"), "Value", to)
	}
	sp := occupancy.Span{First: f, Last: t}
	if sp.Empty() {
		return sp, fault.Coded(fault.Invalid, "err.booking.days_order", "ToField", i18n.FieldName("to"), "To", to, "FromField", i18n.FieldName("from"), "From", from)
	}
	if sp.Len() > MaxAvailabilityDays {
		return sp, fault.Coded(fault.Invalid, "err.booking.days_too_many", "Days", sp.Len(), "Max", MaxAvailabilityDays)
	}
	return sp, nil
}

// Availability reads the occupancy of span (docs/capacity.md#seeing-it): the ledger's counts, plus,
// on days up to today, the open stays (no exit, or EN CURSO past their exit).
func (s *Service) Availability(ctx context.Context, span occupancy.Span) (Availability, error) {
	f, err := s.store.Catalog().Facility(ctx)
	if err != nil {
		return Availability{}, err
	}
	return s.availability(ctx, span, f)
}

// availability is Availability with the settings already read.
func (s *Service) availability(ctx context.Context, span occupancy.Span, f settings.Facility) (Availability, error) {
	ledger, err := s.store.Occupancy().Occupancy(ctx, span)
	if err != nil {
		return Availability{}, err
	}
	now := s.now()
	today := occupancy.DayOf(now, s.loc)
	booked := make([]int, span.Len())
	for d, n := range ledger {
		booked[d-span.First] = n
	}
	if span.First <= today {
		last := min(span.Last, today)
		open, err := s.store.Occupancy().OpenStays(ctx, (last + 1).Start(s.loc), today.Start(s.loc))
		if err != nil {
			return Availability{}, err
		}
		for _, st := range open {
			sp := occupancy.Open(st, s.loc, today)
			for d := max(sp.First, span.First); d <= min(sp.Last, span.Last); d++ {
				booked[d-span.First]++
			}
		}
	}
	out := Availability{From: span.First, To: span.Last, Facility: f, Days: make([]DayAvailability, span.Len())}
	limit := f.SellableLimit()
	for i := range out.Days {
		out.Days[i] = DayAvailability{Day: span.First + occupancy.Day(i), Booked: booked[i], Limit: limit,
			Status: occupancy.StatusOf(booked[i], limit)}
	}
	return out, nil
}

// StayAvailability is the availability of the days a stay from entry to exit would
// occupy (the quote's availability field). It reads the settings from the quote's copy
// (docs/capacity.md#the-quotes-copy-of-the-settings); when the facility sells without a limit it
// reads nothing else and answers no days. With a limit, the booked counts come from the
// quote's copy of the occupancy (docs/capacity.md#the-quotes-copy-of-the-occupancy), and
// from the database when a day of the stay is near full. The days answered from the
// copy are written into days when it is long enough (the quote's buffer, on its stack;
// nil allocates them).
func (s *Service) StayAvailability(ctx context.Context, entry, exit time.Time, days []DayAvailability) (Availability, error) {
	sp := occupancy.Span{First: occupancy.DayOf(entry, s.loc), Last: occupancy.DayOf(exit, s.loc)}
	if sp.Empty() || sp.Len() > MaxAvailabilityDays*4 {
		return Availability{}, fault.Coded(fault.Invalid, "err.booking.stay_dates")
	}
	f, err := s.catalogOps.CachedFacility(ctx)
	if err != nil {
		return Availability{}, err
	}
	if f.SellableLimit() == 0 {
		return Availability{From: sp.First, To: sp.Last, Facility: f}, nil
	}
	booked, ok, err := s.quoteDays.booked(ctx, sp, f.SellableLimit())
	if err != nil {
		return Availability{}, err
	}
	if ok {
		return availabilityOf(sp, f, booked, days), nil
	}
	return s.availability(ctx, sp, f)
}

// RebuildOccupancy recomputes the ledger from the reservations; it returns how many
// days it corrected.
func (s *Service) RebuildOccupancy(ctx context.Context) (int, error) {
	n, err := s.store.Occupancy().RebuildOccupancy(ctx, s.loc)
	s.quoteDays.drop() // the ledger may have moved, even on a failure
	if err != nil {
		return 0, fmt.Errorf("rebuild occupancy: %w", err)
	}
	return n, nil
}

// EnsureOccupancy builds the ledger at start when it never was (a database that had
// reservations before the ledger existed).
func (s *Service) EnsureOccupancy(ctx context.Context) (bool, error) {
	built, err := s.store.Occupancy().OccupancyBuilt(ctx)
	if err != nil || built {
		return false, err
	}
	_, err = s.RebuildOccupancy(ctx)
	return err == nil, err
}

// Summary is the worst status over the days (full beats few beats available) and
// the full days.
func (a Availability) Summary() (occupancy.Status, []occupancy.Day) {
	st := occupancy.Available
	var full []occupancy.Day
	for _, d := range a.Days {
		switch d.Status {
		case occupancy.Full:
			st = occupancy.Full
			full = append(full, d.Day)
		case occupancy.Few:
			if st == occupancy.Available {
				st = occupancy.Few
			}
		}
	}
	return st, full
}
