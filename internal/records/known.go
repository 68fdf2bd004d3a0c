package records

import (
	"context"
	"errors"
	"strings"

	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/input"
	"parking/internal/store"
)

// KnownCustomer finds, for the walk-in form, the customer and vehicle of the latest
// booking with this phone (read in the facility's region) or, when no phone is
// given, this plate (docs/reservations.md#walk-in-lookup); found false when none.
// Staff only (the web layer's guard): it reads a customer's name and contact.
func (s *Service) KnownCustomer(ctx context.Context, phone, plate string) (store.KnownCustomer, bool, error) {
	var k store.KnownCustomer
	var err error
	switch {
	case strings.TrimSpace(phone) != "":
		p, ok := s.input.PhoneLookup(phone)
		if !ok {
			return k, false, nil // not a phone yet (still being typed): nobody
		}
		k, err = s.store.Customers().KnownByPhone(ctx, p)
	case strings.TrimSpace(plate) != "":
		p, perr := input.Plate("license_plate", plate)
		if perr != nil {
			return k, false, nil
		}
		k, err = s.store.Customers().KnownByPlate(ctx, p)
	default:
		return k, false, fault.Coded(fault.Invalid, "err.input.required", "Field", i18n.FieldName("phone"))
	}
	if errors.Is(err, store.ErrNotFound) {
		return k, false, nil
	}
	return k, err == nil, err
}
