package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"parking/internal/occupancy"
	"parking/internal/settings"
	"parking/internal/store"
	"parking/internal/storetest"
)

// A new stay's claim held to the sellable places read by the store itself
// (OccupancyChange.SellableLimit): far from the limit (PostgreSQL's one-round-trip
// fast path), within the stripes' margin of it (the fast attempt rolls itself back
// and the exact path decides: the stay is counted once), and over it (refused, the
// ledger as it was). Both databases; the ledger must equal its own sum every step.
func TestOccupancyClaimAgainstTheSellableLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		ctx := context.Background()
		f := settings.Defaults(40)
		f.Sellable = 20
		if _, err := st.Catalog().SeedFacility(ctx, f); err != nil {
			t.Fatal(err)
		}
		const today, first, last = occupancy.Day(20000), occupancy.Day(20010), occupancy.Day(20012)
		stay := occupancy.Span{First: first, Last: last}
		errRefused := errors.New("refused")
		claim := func(id int64) ([]occupancy.Day, error) {
			var over []occupancy.Day
			err := st.InTx(ctx, func(tx *store.Tx) error {
				var err error
				over, err = tx.Occupancy().ApplyOccupancy(ctx, store.OccupancyChange{
					Reservation: id, Claim: []occupancy.Span{stay}, Check: []occupancy.Span{stay},
					SellableLimit: true, Today: today,
				})
				if err == nil && len(over) > 0 {
					return errRefused // as booking.Service does: nothing kept
				}
				return err
			})
			if errors.Is(err, errRefused) {
				err = nil
			}
			return over, err
		}
		expect := func(step string, n int) {
			t.Helper()
			got, err := st.Occupancy().Occupancy(ctx, stay)
			if err != nil {
				t.Fatal(err)
			}
			for x := first; x <= last; x++ {
				if got[x] != n {
					t.Fatalf("%s: day %d has %d booked, want %d (%v)", step, x, got[x], n, got)
				}
			}
		}
		for id := int64(1); id <= 20; id++ { // 1..12 far from 20 (n + 7 ≤ 20), 13..20 near it
			if over, err := claim(id); err != nil || len(over) != 0 {
				t.Fatalf("claim %d: over %v, %v; want accepted", id, over, err)
			}
			expect("accepted claims", int(id))
		}
		over, err := claim(21)
		if err != nil || !slices.Equal(over, []occupancy.Day{first, first + 1, last}) {
			t.Fatalf("claim over the sellable places: over %v, %v; want every day of the stay", over, err)
		}
		expect("refused claim", 20)
	})
}
