package booking

import (
	"context"
	"errors"
	"slices"
	"time"

	"parking/internal/fault"
	"parking/internal/occupancy"
	"parking/internal/store"
)

// Allotments (docs/partners.md#allotment). A partner's allotment is the most places
// a day its own bookings may hold: a cap, it reserves nothing (the facility's
// sellable places still hold every channel together, through the ledger). A day
// counts the partner's stays by the facility's rules (internal/occupancy: entry day
// to exit day, open stays up to today).
//
// Exactness: every change that adds days to a partner's stay first locks the
// partner's row (store.PartnersTx.LockPartner: a row lock on PostgreSQL, shared by
// every instance; SQLite has one writer), then counts the partner's stays from the
// reservations themselves, the changed row included. Two bookings for the
// partner's last place run one after the other; the second counts the first. The
// count is read from the rows, so there is no second ledger to keep in step after
// a crash. The partner's lock is always taken before the facility ledger's rows, so
// the two never wait on each other in opposite orders.

// errPartnerInactive refuses a booking change of a partner deactivated meanwhile
// (its keys are refused from then on: 401).
var errPartnerInactive = fault.Coded(fault.Unauthorized, "err.partner.unauthorized")

// checkAllotment locks after's partner and refuses (409 with full_days) the change
// from before to after when a day it adds, from today on, is over the allotment.
func checkAllotment(ctx context.Context, tx *store.Tx, loc *time.Location, before, after occupancy.Stay, today occupancy.Day) error {
	p, err := tx.Partners().LockPartner(ctx, after.Partner)
	if errors.Is(err, store.ErrNotFound) {
		return errPartnerInactive
	}
	if err != nil {
		return err
	}
	if !p.Active {
		return errPartnerInactive
	}
	if p.Allotment == nil {
		return nil
	}
	var check []occupancy.Span
	for _, sp := range minusAll(occupancy.Occupied(after, loc, today), occupancy.Occupied(before, loc, today)) {
		if sp.Last >= today {
			check = append(check, occupancy.Span{First: max(sp.First, today), Last: sp.Last})
		}
	}
	if len(check) == 0 {
		return nil
	}
	whole := check[0]
	for _, sp := range check[1:] {
		whole.First, whole.Last = min(whole.First, sp.First), max(whole.Last, sp.Last)
	}
	stays, err := tx.Partners().PartnerStays(ctx, p.ID, whole.First.Start(loc), (whole.Last + 1).Start(loc))
	if err != nil {
		return err
	}
	counts := countDays(stays, loc, today, whole)
	var over []occupancy.Day
	for _, sp := range check {
		for d := sp.First; d <= sp.Last; d++ {
			if counts[d-whole.First] > *p.Allotment {
				over = append(over, d)
			}
		}
	}
	if len(over) == 0 {
		return nil
	}
	slices.Sort(over)
	return fullDays(slices.Compact(over))
}

// countDays counts, on each day of span, the stays that occupy it given today.
func countDays(stays []occupancy.Stay, loc *time.Location, today occupancy.Day, span occupancy.Span) []int {
	counts := make([]int, span.Len())
	for _, st := range stays {
		for _, sp := range occupancy.Occupied(st, loc, today) {
			for d := max(sp.First, span.First); d <= min(sp.Last, span.Last); d++ {
				counts[d-span.First]++
			}
		}
	}
	return counts
}
