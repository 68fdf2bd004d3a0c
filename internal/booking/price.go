package booking

import (
	"context"
	"errors"
	"slices"
	"time"

	"parking/internal/fault"
	"parking/internal/input"
	"parking/internal/money"
	"parking/internal/pricing"
	"parking/internal/reservation"
	"parking/internal/store"
)

// stay is what a price depends on: the pricing inputs of docs/pricing.md#repricing-an-edit.
type stay struct {
	Entry       time.Time
	Exit        *time.Time // nil: open, priced as the minimum one day (docs/dates.md#open-exits)
	VehicleType string
	MainService int64
	Extras      []int64 // the selection as sent: repeats and unknown ids allowed
}

// bookedStay is a stored reservation's priced state, which an edit starts from.
type bookedStay struct {
	Inputs stay // the stored pricing inputs; Inputs.Extras are the booked ids
	Total  money.Cents
	Extras []store.BookedExtra // the booked extras with the price each was booked at
}

// bookedOf is the priced state of reservation r, stored with vehicle type
// vehicleType and extras booked.
func bookedOf(r reservation.Reservation, vehicleType string, booked []reservation.BookedExtraDetail) *bookedStay {
	b := &bookedStay{
		Inputs: stay{Entry: r.Entry, Exit: r.Exit, VehicleType: vehicleType, MainService: r.MainServiceID, Extras: make([]int64, len(booked))},
		Total:  r.TotalPrice,
		Extras: make([]store.BookedExtra, len(booked)),
	}
	for i, e := range booked {
		b.Inputs.Extras[i] = e.ID
		b.Extras[i] = store.BookedExtra{ID: e.ID, Price: e.Price}
	}
	return b
}

// pricedStay is a stay priced by price, ready to be stored.
type pricedStay struct {
	// Quote is the price. When Repriced is false only Total is set: the stored total.
	Quote pricing.Quote
	// Extras are the selected additional services, once each, in the order given,
	// with the price to store: a booked one keeps its booked price, a new one has
	// today's.
	Extras []store.BookedExtra
	// Repriced is false when an edit changed no pricing input and kept its total.
	Repriced bool
}

// price is the one price path (docs/pricing.md#one-price-path): the quote, the public booking, the
// walk-in, the staff update, the customer edit and the finalize of an open stay
// all call it, so the same data gets the same total whichever asks.
//
// ch is Public for the customer-facing flows (quote without a staff session, public
// booking, customer edit) and WalkIn for staff (quote with a staff session, walk-in,
// staff update, finalize). prev is the reservation being edited, nil when creating.
//
//   - An inactive main service is refused to the public, in the quote and the
//     booking alike; staff may use it. An edit may keep the one it has.
//   - A selected extra counts once however often the list repeats it. An extra the
//     reservation already has keeps the price it was booked at, even if it has since
//     been retired; a newly added one takes today's price; a newly added unknown or
//     retired one is skipped with a warning, for every channel (README: Dates,
//     money and the price rule).
//   - An edit that changes no pricing input (dates, main service, extras, vehicle
//     type) keeps its total; otherwise the spec's price rule runs with today's rates
//     and coefficient.
//
// The selected extras are appended to buf: a quote, which keeps only the total, passes
// a buffer of its own (on its stack); nil allocates them.
func (s *Service) price(ctx context.Context, ch Channel, st stay, prev *bookedStay, buf []store.BookedExtra) (pricedStay, error) {
	snap := s.catalog.Load()
	if snap == nil {
		return pricedStay{}, pricingFault(pricing.ErrNotLoaded)
	}
	if ch == Public && (prev == nil || st.MainService != prev.Inputs.MainService) {
		if m, ok := snap.MainService(st.MainService); ok && !m.Active {
			return pricedStay{}, fault.Coded(fault.Invalid, "err.booking.service_unavailable", "Service", m.Name)
		}
	}
	extras, skipped := s.selectExtras(ctx, snap, st.Extras, prev, buf)
	if prev != nil && sameInputs(st, prev.Inputs, extras) {
		return pricedStay{Quote: pricing.Quote{Total: prev.Total, UnknownExtras: skipped}, Extras: prev.Extras}, nil
	}
	prices := make([]money.Cents, len(extras))
	for i, e := range extras {
		prices[i] = e.Price
	}
	exit := st.Entry
	if st.Exit != nil {
		exit = *st.Exit
	}
	q, err := snap.Quote(pricing.Request{Entry: st.Entry, Exit: exit, VehicleType: st.VehicleType, MainService: st.MainService, ExtraPrices: prices})
	if err != nil {
		return pricedStay{}, pricingFault(err)
	}
	q.UnknownExtras = skipped
	return pricedStay{Quote: q, Extras: extras, Repriced: true}, nil
}

// selectExtras keeps the requested additional services once each, in the order
// given: one already booked on prev at its booked price, a new one at today's
// price. A new id that is unknown or retired is skipped with a warning (spec, price
// rule 4; docs/pricing.md#one-price-path); skipped counts them. They are appended to
// out, made for them when nil.
func (s *Service) selectExtras(ctx context.Context, snap *pricing.Snapshot, ids []int64, prev *bookedStay, out []store.BookedExtra) ([]store.BookedExtra, int) {
	seen := make(map[int64]bool, len(ids))
	if out == nil {
		out = make([]store.BookedExtra, 0, len(ids))
	}
	skipped := 0
next:
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		if prev != nil {
			for _, b := range prev.Extras {
				if b.ID == id {
					out = append(out, b)
					continue next
				}
			}
		}
		e, ok := snap.Extra(id)
		if !ok || !e.Active {
			s.log.WarnContext(ctx, "unknown or retired additional service skipped", "id_additional_service", id, "known", ok)
			skipped++
			continue
		}
		out = append(out, store.BookedExtra{ID: e.ID, Price: e.Price})
	}
	return out, skipped
}

// sameInputs reports whether st, with its extras selected as extras, prices like
// the stored prev: same dates, main service, vehicle type and set of extras.
func sameInputs(st, prev stay, extras []store.BookedExtra) bool {
	if !st.Entry.Equal(prev.Entry) || !sameTime(st.Exit, prev.Exit) || st.MainService != prev.MainService ||
		pricing.NormalizeVehicleType(st.VehicleType) != pricing.NormalizeVehicleType(prev.VehicleType) || len(extras) != len(prev.Extras) {
		return false
	}
	for _, e := range extras {
		if !slices.Contains(prev.Extras, e.ID) {
			return false
		}
	}
	return true
}

// QuoteEdit prices a change to reservation id as the edit would charge it
// (docs/pricing.md#one-price-path: the quote is the price), for the edit forms' live preview: no pricing input
// changed keeps the stored total; otherwise today's rates, the booked extras at their
// booked price and new ones at today's. customerID 0 is staff (any reservation, the
// vehicle type as sent, inactive main services allowed); otherwise the caller must
// see the reservation (accountSees), which is priced with its own vehicle type, as CustomerEdit
// does. An EN CURSO reservation keeps its entry date; a terminal one is refused.
func (s *Service) QuoteEdit(ctx context.Context, customerID, id int64, r pricing.Request) (pricing.Quote, error) {
	if customerID == 0 {
		return s.quoteEdit(ctx, id, false, nil, nil, r)
	}
	return s.quoteEdit(ctx, id, true, accountSees(customerID), ErrNotYours, r)
}

// quoteEdit prices r as the edit of reservation id would: as the customer edit
// (customer true: only allowed reservations, the rest refused with denied; the
// reservation's own vehicle type) or as the staff update.
func (s *Service) quoteEdit(ctx context.Context, id int64, customer bool, allowed access, denied error, r pricing.Request) (pricing.Quote, error) {
	if _, err := input.Text("vehicle_type", r.VehicleType, input.MaxText); err != nil {
		return pricing.Quote{}, err
	}
	res, err := s.store.Reservations().Reservation(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		if customer {
			return pricing.Quote{}, denied
		}
		return pricing.Quote{}, notFound(id)
	}
	if err != nil {
		return pricing.Quote{}, err
	}
	if customer {
		if ok, err := allowed(ctx, s.store.Customers(), res); err != nil {
			return pricing.Quote{}, err
		} else if !ok {
			return pricing.Quote{}, denied
		}
	}
	rules := reservation.For(res.Status) // docs/reservations.md#per-state-rules
	if !rules.EditStay {
		return pricing.Quote{}, fault.Coded(fault.Invalid, "err.booking.not_editable", "Status", res.Status.Word())
	}
	v, err := s.store.Customers().Vehicle(ctx, res.VehicleID)
	if err != nil {
		return pricing.Quote{}, err
	}
	booked, err := s.store.Reservations().ReservationExtras(ctx, id)
	if err != nil {
		return pricing.Quote{}, err
	}
	ch, vehicleType := WalkIn, r.VehicleType
	if customer {
		ch, vehicleType = Public, v.Type
	}
	entry := r.Entry
	if !rules.EditEntry {
		entry = res.Entry // docs/reservations.md#per-state-rules: EN CURSO keeps its entry date
	}
	exit := r.Exit
	p, err := s.price(ctx, ch, stay{Entry: entry, Exit: &exit, VehicleType: vehicleType, MainService: r.MainService, Extras: r.Extras},
		bookedOf(res, v.Type, booked), nil)
	return p.Quote, err
}
