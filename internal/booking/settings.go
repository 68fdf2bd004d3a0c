package booking

import (
	"context"

	"parking/internal/settings"
	"parking/internal/store"
)

// Facility reads the facility settings (CONTRACT §1): capacity and sellable
// places, the business identity, the VAT rate, photo retention.
func (s *Service) Facility(ctx context.Context) (settings.Facility, error) {
	return s.store.Facility(ctx)
}

// SaveFacility checks f against the input rules and stores it in one transaction;
// it returns the settings as stored. Staff only (the web layer's guard).
func (s *Service) SaveFacility(ctx context.Context, f settings.Facility) (settings.Facility, error) {
	f, err := f.Normalise()
	if err != nil {
		return f, err
	}
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		_, err := tx.SaveFacility(ctx, f)
		return err
	})
	return f, err
}
