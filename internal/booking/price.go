package booking

import (
	"time"

	"parking/internal/pricing"
	"parking/internal/store"
)

// pricedStay is a stay priced with the current catalog, ready to be stored.
type pricedStay struct {
	Quote  pricing.Quote
	Extras []store.BookedExtra // the kept additional services with their current prices
}

// priceStay prices a stay with the current snapshot: the selected extras are
// de-duplicated and unknown (or, for the public channel, retired) ones skipped; an
// open exit is priced as the minimum one day (CONTRACT §7). Every operation that
// sets a price goes through here, so the spec's rule lives in one place.
func (s *Service) priceStay(ch Channel, entry time.Time, exit *time.Time, vehicleType string, mainService int64, extraIDs []int64) (pricedStay, error) {
	snap := s.catalog.Load()
	if snap == nil {
		return pricedStay{}, pricingFault(pricing.ErrNotLoaded)
	}
	extras := s.selectExtras(snap, ch, extraIDs)
	ids := make([]int64, len(extras))
	out := pricedStay{Extras: make([]store.BookedExtra, len(extras))}
	for i, e := range extras {
		ids[i] = e.ID
		out.Extras[i] = store.BookedExtra{ID: e.ID, Price: e.Price}
	}
	priceExit := entry
	if exit != nil {
		priceExit = *exit
	}
	q, err := snap.Quote(pricing.Request{Entry: entry, Exit: priceExit, VehicleType: vehicleType, MainService: mainService, Extras: ids})
	if err != nil {
		return pricedStay{}, pricingFault(err)
	}
	out.Quote = q
	return out, nil
}
