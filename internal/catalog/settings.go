package catalog

import (
	"context"
	"fmt"
	"strconv"

	"parking/internal/audit"
	"parking/internal/ops"
	"parking/internal/settings"
	"parking/internal/store"
)

// Facility reads the facility settings (docs/settings.md): capacity and sellable
// places, the business identity, the VAT rate, photo retention.
func (s *Service) Facility(ctx context.Context) (settings.Facility, error) {
	return s.store.Catalog().Facility(ctx)
}

// SaveFacility checks f against the input rules and stores it in one transaction;
// it returns the settings as stored. Staff only (the web layer's guard).
func (s *Service) SaveFacility(ctx context.Context, f settings.Facility) (settings.Facility, error) {
	f, err := f.Normalise()
	if err != nil {
		return f, err
	}
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		before, err := tx.Catalog().SaveFacility(ctx, f)
		if err != nil {
			return err
		}
		// The audit trail (docs/staff-and-audit.md); saving the same values records nothing.
		if cs := audit.Compare(facilityFields(before), facilityFields(f)); len(cs) > 0 {
			return tx.Audit(ctx, audit.Entry{Action: audit.ActionSettings, Entity: audit.EntitySettings, EntityID: "facility", Changes: cs})
		}
		return nil
	})
	if err == nil {
		// The quote's copy of the settings (docs/capacity.md#the-quotes-copy-of-the-settings):
		// dropped here, and on the other instances when they hear of it.
		s.ForgetFacility()
		s.shared.Announce(ops.Signal{Type: ops.SignalSettings})
	}
	return f, err
}

// facilityFields lists the settings as the audit trail compares them.
func facilityFields(f settings.Facility) audit.Fields {
	return audit.F(
		"capacity", strconv.Itoa(f.Capacity), "sellable", strconv.Itoa(f.Sellable),
		"name", f.Name, "tax_id", f.TaxID, "address", f.Address, "phone", f.Phone, "email", f.Email,
		"vat_rate", fmt.Sprintf("%d.%02d %%", f.VATBasisPoints/100, f.VATBasisPoints%100),
		"photo_retention_days", strconv.Itoa(f.PhotoRetentionDays),
		"charge_overstay", strconv.FormatBool(f.ChargeOverstay),
		"exit_grace_minutes", strconv.Itoa(f.ExitGraceMinutes),
		"arrival_es", f.Arrival.ES, "arrival_en", f.Arrival.EN, "arrival_de", f.Arrival.DE, "arrival_fr", f.Arrival.FR,
	)
}
