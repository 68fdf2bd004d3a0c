package records

import (
	"context"
	"strings"

	"parking/internal/input"
	"parking/internal/store"
)

// Find reads what staff typed in the search box (docs/admin.md#find): a booking
// reference, a plate or a phone in any form, or a reservation id. It returns the
// reservation to open — the only active (PENDIENTE or EN CURSO) one the text names,
// else the only one it names — and false when there is none or several (the
// history search for the text is the answer then).
func (s *Service) Find(ctx context.Context, q string) (int64, bool, error) {
	q = strings.TrimSpace(q)
	if q == "" || len(q) > input.MaxSearch {
		return 0, false, nil
	}
	var k store.FindKeys
	k.Reference, _ = input.ReferenceLookup(q)
	if p, err := input.Plate("search", q); err == nil {
		k.Plate = p
	}
	k.Phone, _ = s.input.PhoneLookup(q)
	if id, ok := input.IDLookup(strings.TrimPrefix(q, "#")); ok {
		k.ID = id
	}
	return s.find(ctx, k)
}

// ByReference returns the id of the reservation with this reference (stored form).
func (s *Service) ByReference(ctx context.Context, ref string) (int64, bool, error) {
	return s.find(ctx, store.FindKeys{Reference: ref})
}

// find applies Find's rule to the reservations the keys name.
func (s *Service) find(ctx context.Context, k store.FindKeys) (int64, bool, error) {
	for _, active := range []bool{true, false} {
		found, err := s.store.Records().Find(ctx, k, active, 2)
		if err != nil {
			return 0, false, err
		}
		if len(found) == 1 {
			return found[0].ID, true, nil
		}
		if active && len(found) > 1 {
			return 0, false, nil
		}
	}
	return 0, false, nil
}
