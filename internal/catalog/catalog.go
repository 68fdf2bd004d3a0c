package catalog

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/input"
	"parking/internal/money"
	"parking/internal/ops"
	"parking/internal/pricing"
	"parking/internal/store"
)

// Catalog administration (docs/pricing.md#catalog). Each change is saved in one transaction;
// then the catalog is read back and the in-memory pricing snapshot swapped
// atomically, so the next quote uses it without a restart. Stored reservations keep
// their total and the prices their extras were booked with.

// Catalog bounds. They keep every price the rule can produce far inside the stored
// total's range (decimal(10,2)): 9 999.99 €/day × 9 999 days × 10.
const (
	MaxDailyPrice  money.Cents      = 999_999
	MaxExtraPrice  money.Cents      = 999_999
	MaxBandDays                     = 9999
	MaxCoefficient money.Multiplier = 10 * money.One
	MaxServiceName                  = 100
	MaxServiceDesc                  = 500
)

// MainServiceInput creates or changes a main service; nil fields are not sent.
type MainServiceInput struct {
	Name        *string
	Description *string
	Active      *bool
}

// RateInput creates or changes a rate band; nil fields are not sent.
type RateInput struct {
	MainService *int64
	MinDays     *int64
	MaxDays     *int64
	DailyPrice  *money.Cents
}

// ExtraInput creates or changes an additional service; nil fields are not sent.
type ExtraInput struct {
	Name   *string
	Price  *money.Cents
	Active *bool
}

// changeCatalog runs fn in one transaction and, once it committed, installs a new
// snapshot read from the database. The mutex orders change+reload pairs, so a
// slower reload can never install an older catalog over a newer one.
func (s *Service) changeCatalog(ctx context.Context, what string, fn func(tx *store.Tx) error) error {
	s.catalogMu.Lock()
	defer s.catalogMu.Unlock()
	if err := s.store.InTx(ctx, fn); err != nil {
		if store.IsUniqueViolation(err) {
			return because(fault.Coded(fault.Conflict, "err.catalog.name_taken"), err)
		}
		return fmt.Errorf("%s: %w", what, err)
	}
	if s.store.Shared() {
		s.shared.Announce(ops.Signal{Type: ops.SignalCatalog}) // the other instances reload too
	}
	return s.ReloadCatalog(ctx)
}

// ReloadCatalog reads the catalog and swaps the pricing snapshot.
func (s *Service) ReloadCatalog(ctx context.Context) error {
	cat, err := s.store.Catalog().LoadCatalog(ctx)
	if err != nil {
		s.log.ErrorContext(ctx, "catalog saved but not reloaded; quotes use the previous one until the next change or restart", "err", err)
		return fmt.Errorf("reload catalog: %w", err)
	}
	s.catalog.Store(pricing.NewSnapshot(cat))
	return nil
}

// CreateMainService adds a main service (active unless told otherwise).
func (s *Service) CreateMainService(ctx context.Context, in MainServiceInput) (pricing.MainService, error) {
	m := pricing.MainService{Active: true}
	if err := applyMainService(&m, in, true); err != nil {
		return m, err
	}
	err := s.changeCatalog(ctx, "create main service", func(tx *store.Tx) error {
		var err error
		if m.ID, err = tx.Catalog().InsertMainService(ctx, m); err != nil {
			return err
		}
		return auditCatalog(ctx, tx, audit.ActionCreate, audit.EntityMainService, audit.ID(m.ID), nil, mainServiceFields(m))
	})
	return m, s.nameTaken(err, "err.catalog.service_name_taken", m.Name)
}

// UpdateMainService changes a main service's name, description or active flag.
// A deactivated service is no longer offered to customers; administrators still
// see and use it, and its reservations are untouched.
func (s *Service) UpdateMainService(ctx context.Context, id int64, in MainServiceInput) (pricing.MainService, error) {
	var m pricing.MainService
	err := s.changeCatalog(ctx, "update main service", func(tx *store.Tx) error {
		var err error
		if m, err = tx.Catalog().MainServiceForUpdate(ctx, id); err != nil {
			return notFoundAs(err, "err.catalog.service_not_found", id)
		}
		before := mainServiceFields(m)
		if err := applyMainService(&m, in, false); err != nil {
			return err
		}
		if err := tx.Catalog().UpdateMainService(ctx, m); err != nil {
			return err
		}
		return auditCatalog(ctx, tx, audit.ActionUpdate, audit.EntityMainService, audit.ID(m.ID), before, mainServiceFields(m))
	})
	return m, s.nameTaken(err, "err.catalog.service_name_taken", m.Name)
}

func applyMainService(m *pricing.MainService, in MainServiceInput, creating bool) error {
	if in.Name != nil {
		m.Name = strings.TrimSpace(*in.Name)
	}
	if in.Description != nil {
		m.Description = strings.TrimSpace(*in.Description)
	}
	if in.Active != nil {
		m.Active = *in.Active
	}
	if m.Name == "" && (creating || in.Name != nil) {
		return fault.Coded(fault.Invalid, "err.catalog.service_name_required")
	}
	if err := input.Check("name", m.Name, MaxServiceName); err != nil {
		return err
	}
	return input.Check("description", m.Description, MaxServiceDesc)
}

// CreateRate adds a rate band to a main service. docs/pricing.md#price-rule 2: the band with
// min_days <= days <= max_days gives the daily price, so the bands of one service
// must not overlap (else the price would depend on which one is found first);
// min_days >= 1, max_days >= min_days, daily price >= 0.
func (s *Service) CreateRate(ctx context.Context, in RateInput) (pricing.Rate, error) {
	var r pricing.Rate
	if in.MainService == nil || in.MinDays == nil || in.MaxDays == nil || in.DailyPrice == nil {
		return r, fault.Coded(fault.Invalid, "err.catalog.rate_fields_required", "Service", i18n.FieldName("id_main_service"),
			"MinDays", i18n.FieldName("min_days"), "MaxDays", i18n.FieldName("max_days"), "Price", i18n.FieldName("daily_price"))
	}
	applyRate(&r, in)
	err := s.changeCatalog(ctx, "create rate", func(tx *store.Tx) error {
		if err := s.checkRate(ctx, tx, r); err != nil {
			return err
		}
		var err error
		if r.ID, err = tx.Catalog().InsertRate(ctx, r); err != nil {
			return err
		}
		return auditCatalog(ctx, tx, audit.ActionCreate, audit.EntityRate, audit.ID(r.ID), nil, rateFields(r))
	})
	return r, err
}

// UpdateRate changes a rate band (same rules as CreateRate).
func (s *Service) UpdateRate(ctx context.Context, id int64, in RateInput) (pricing.Rate, error) {
	var r pricing.Rate
	err := s.changeCatalog(ctx, "update rate", func(tx *store.Tx) error {
		var err error
		if r, err = tx.Catalog().Rate(ctx, id); err != nil {
			return notFoundAs(err, "err.catalog.rate_not_found", id)
		}
		if in.MainService != nil && *in.MainService != r.MainService {
			// Moving a band: lock the service it leaves as well.
			if _, err := tx.Catalog().MainServiceForUpdate(ctx, r.MainService); err != nil {
				return err
			}
		}
		before := rateFields(r)
		applyRate(&r, in)
		if err := s.checkRate(ctx, tx, r); err != nil {
			return err
		}
		if err := tx.Catalog().UpdateRate(ctx, r); err != nil {
			return err
		}
		return auditCatalog(ctx, tx, audit.ActionUpdate, audit.EntityRate, audit.ID(r.ID), before, rateFields(r))
	})
	return r, err
}

// DeleteRate removes a rate band. Quotes for the days it covered fail until another
// band covers them; stored reservations are untouched.
func (s *Service) DeleteRate(ctx context.Context, id int64) error {
	return s.changeCatalog(ctx, "delete rate", func(tx *store.Tx) error {
		r, err := tx.Catalog().Rate(ctx, id)
		if err != nil {
			return notFoundAs(err, "err.catalog.rate_not_found", id)
		}
		if _, err := tx.Catalog().MainServiceForUpdate(ctx, r.MainService); err != nil {
			return err
		}
		if _, err = tx.Catalog().DeleteRate(ctx, id); err != nil {
			return err
		}
		return auditCatalog(ctx, tx, audit.ActionDelete, audit.EntityRate, audit.ID(id), rateFields(r), nil)
	})
}

func applyRate(r *pricing.Rate, in RateInput) {
	if in.MainService != nil {
		r.MainService = *in.MainService
	}
	if in.MinDays != nil {
		r.MinDays = *in.MinDays
	}
	if in.MaxDays != nil {
		r.MaxDays = *in.MaxDays
	}
	if in.DailyPrice != nil {
		r.DailyPrice = *in.DailyPrice
	}
}

// checkRate validates a band against the bounds and the other bands of its service
// (read after locking the service row, so two edits cannot both pass).
func (s *Service) checkRate(ctx context.Context, tx *store.Tx, r pricing.Rate) error {
	switch {
	case r.MinDays < 1:
		return fault.Coded(fault.Invalid, "err.catalog.min_days", "Field", i18n.FieldName("min_days"), "Value", r.MinDays)
	case r.MaxDays < r.MinDays:
		return fault.Coded(fault.Invalid, "err.catalog.max_below_min", "Field", i18n.FieldName("max_days"), "Value", r.MaxDays,
			"MinField", i18n.FieldName("min_days"), "Min", r.MinDays)
	case r.MaxDays > MaxBandDays:
		return fault.Coded(fault.Invalid, "err.catalog.max_days", "Field", i18n.FieldName("max_days"), "Max", MaxBandDays)
	case r.DailyPrice < 0:
		return fault.Coded(fault.Invalid, "err.catalog.daily_price_negative")
	case r.DailyPrice > MaxDailyPrice:
		// The amount as the API has always written it ("9999.99 €").
		return fault.Coded(fault.Invalid, "err.catalog.daily_price_max", "Max", MaxDailyPrice.String())
	}
	m, err := tx.Catalog().MainServiceForUpdate(ctx, r.MainService)
	if err != nil {
		return notFoundAs(err, "err.catalog.service_not_found", r.MainService)
	}
	others, err := tx.Catalog().RatesOfService(ctx, r.MainService)
	if err != nil {
		return err
	}
	for _, o := range others {
		if o.ID != r.ID && o.MinDays <= r.MaxDays && r.MinDays <= o.MaxDays {
			return fault.Coded(fault.Conflict, "err.catalog.rate_overlap", "Min", r.MinDays, "Max", r.MaxDays, "Rate", o.ID,
				"OtherMin", o.MinDays, "OtherMax", o.MaxDays, "Service", m.Name)
		}
	}
	return nil
}

// CreateCoefficient adds a vehicle type with its multiplier (> 0).
func (s *Service) CreateCoefficient(ctx context.Context, vehicleType string, m money.Multiplier) (pricing.Coefficient, error) {
	k := pricing.Coefficient{VehicleType: pricing.NormalizeVehicleType(vehicleType), Multiplier: m}
	if err := checkCoefficient(k); err != nil {
		return k, err
	}
	err := s.changeCatalog(ctx, "create coefficient", func(tx *store.Tx) error {
		if _, err := tx.Catalog().Coefficient(ctx, k.VehicleType); err == nil {
			return fault.Coded(fault.Conflict, "err.catalog.vehicle_type_exists", "Type", k.VehicleType)
		}
		if err := tx.Catalog().InsertCoefficient(ctx, k); err != nil {
			return err
		}
		return auditCatalog(ctx, tx, audit.ActionCreate, audit.EntityVehicleType, k.VehicleType, nil, coefficientFields(k))
	})
	return k, err
}

// UpdateCoefficient changes the multiplier of an existing vehicle type.
func (s *Service) UpdateCoefficient(ctx context.Context, vehicleType string, m money.Multiplier) (pricing.Coefficient, error) {
	k := pricing.Coefficient{VehicleType: pricing.NormalizeVehicleType(vehicleType), Multiplier: m}
	if err := checkCoefficient(k); err != nil {
		return k, err
	}
	err := s.changeCatalog(ctx, "update coefficient", func(tx *store.Tx) error {
		old, err := tx.Catalog().Coefficient(ctx, k.VehicleType)
		if err != nil {
			return notFoundAs(err, "err.catalog.vehicle_type_not_found", k.VehicleType)
		}
		if err := tx.Catalog().UpdateCoefficient(ctx, k); err != nil {
			return err
		}
		return auditCatalog(ctx, tx, audit.ActionUpdate, audit.EntityVehicleType, k.VehicleType, coefficientFields(old), coefficientFields(k))
	})
	return k, err
}

func checkCoefficient(k pricing.Coefficient) error {
	if k.VehicleType == "" {
		return fault.Coded(fault.Invalid, "err.catalog.vehicle_type_required")
	}
	if err := input.Check("vehicle_type", k.VehicleType, input.MaxText); err != nil {
		return err
	}
	if k.Multiplier <= 0 {
		return fault.Coded(fault.Invalid, "err.catalog.coefficient_positive", "Value", k.Multiplier.String())
	}
	if k.Multiplier > MaxCoefficient {
		return fault.Coded(fault.Invalid, "err.catalog.coefficient_max", "Max", MaxCoefficient.String())
	}
	return nil
}

// CreateExtra adds an additional service (active unless told otherwise).
func (s *Service) CreateExtra(ctx context.Context, in ExtraInput) (pricing.Extra, error) {
	e := pricing.Extra{Active: true}
	if in.Name == nil || in.Price == nil {
		return e, fault.Coded(fault.Invalid, "err.catalog.extra_fields_required", "Name", i18n.FieldName("name"), "Price", i18n.FieldName("price"))
	}
	if err := applyExtra(&e, in); err != nil {
		return e, err
	}
	err := s.changeCatalog(ctx, "create additional service", func(tx *store.Tx) error {
		var err error
		if e.ID, err = tx.Catalog().InsertExtra(ctx, e); err != nil {
			return err
		}
		return auditCatalog(ctx, tx, audit.ActionCreate, audit.EntityExtra, audit.ID(e.ID), nil, extraFields(e))
	})
	return e, s.nameTaken(err, "err.catalog.extra_name_taken", e.Name)
}

// UpdateExtra changes an additional service. Reservations that booked it keep the
// price it had then.
func (s *Service) UpdateExtra(ctx context.Context, id int64, in ExtraInput) (pricing.Extra, error) {
	var e pricing.Extra
	err := s.changeCatalog(ctx, "update additional service", func(tx *store.Tx) error {
		var err error
		if e, err = tx.Catalog().Extra(ctx, id); err != nil {
			return notFoundAs(err, "err.catalog.extra_not_found", id)
		}
		before := extraFields(e)
		if err := applyExtra(&e, in); err != nil {
			return err
		}
		if err := tx.Catalog().UpdateExtra(ctx, e); err != nil {
			return err
		}
		return auditCatalog(ctx, tx, audit.ActionUpdate, audit.EntityExtra, audit.ID(e.ID), before, extraFields(e))
	})
	return e, s.nameTaken(err, "err.catalog.extra_name_taken", e.Name)
}

func applyExtra(e *pricing.Extra, in ExtraInput) error {
	if in.Name != nil {
		e.Name = strings.TrimSpace(*in.Name)
		if e.Name == "" {
			return fault.Coded(fault.Invalid, "err.catalog.extra_name_required")
		}
	}
	if in.Price != nil {
		e.Price = *in.Price
	}
	if in.Active != nil {
		e.Active = *in.Active
	}
	if err := input.Check("name", e.Name, MaxServiceName); err != nil {
		return err
	}
	if e.Price < 0 {
		return fault.Coded(fault.Invalid, "err.catalog.extra_price_negative")
	}
	if e.Price > MaxExtraPrice {
		return fault.Coded(fault.Invalid, "err.catalog.extra_price_max", "Max", MaxExtraPrice.String())
	}
	return nil
}

// nameTaken words the unique-name Conflict of changeCatalog for the item at hand
// (code: its catalogue key, which names the kind of item).
func (s *Service) nameTaken(err error, code, name string) error {
	var fe *fault.Error
	if err != nil && errors.As(err, &fe) && fe.Kind == fault.Conflict && store.IsUniqueViolation(err) {
		return because(fault.Coded(fault.Conflict, code, "Name", name), err)
	}
	return err
}

// notFoundAs turns the store's ErrNotFound into a NotFound fault coded code, its
// placeholder ID the item's.
func notFoundAs(err error, code string, id any) error {
	if errors.Is(err, store.ErrNotFound) {
		return fault.Coded(fault.NotFound, code, "ID", id)
	}
	return err
}

// because is refusal with err as its cause (for the logs).
func because(refusal *fault.Error, err error) *fault.Error {
	refusal.Err = err
	return refusal
}

// The catalog's audit trail (docs/staff-and-audit.md): every change above records
// one entry with the item's fields before and after, in its transaction. A change
// that changed nothing records nothing.
func auditCatalog(ctx context.Context, tx *store.Tx, action, entity, id string, before, after audit.Fields) error {
	cs := audit.Compare(before, after)
	if len(cs) == 0 && action == audit.ActionUpdate {
		return nil
	}
	return tx.Audit(ctx, audit.Entry{Action: action, Entity: entity, EntityID: id, Changes: cs})
}

func mainServiceFields(m pricing.MainService) audit.Fields {
	return audit.F("name", m.Name, "description", m.Description, "active", audit.Bool(m.Active))
}

func rateFields(r pricing.Rate) audit.Fields {
	return audit.F("id_main_service", strconv.FormatInt(r.MainService, 10), "min_days", strconv.FormatInt(r.MinDays, 10),
		"max_days", strconv.FormatInt(r.MaxDays, 10), "daily_price", r.DailyPrice.String())
}

func coefficientFields(k pricing.Coefficient) audit.Fields {
	return audit.F("coefficient", k.Multiplier.String())
}

func extraFields(e pricing.Extra) audit.Fields {
	return audit.F("name", e.Name, "price", e.Price.String(), "active", audit.Bool(e.Active))
}
