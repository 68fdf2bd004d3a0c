package account

import (
	"context"
	"fmt"
	"time"

	"parking/internal/store"
)

// MarketingConsent returns when the user consented to offers by email (nil: not
// given or withdrawn; docs/privacy.md#consents).
func (s *Service) MarketingConsent(ctx context.Context, userID int64) (*time.Time, error) {
	return s.store.Privacy().CustomerMarketingConsent(ctx, userID)
}

// SetMarketingConsent gives (now) or withdraws the user's marketing consent: as
// easy to withdraw as to give (GDPR art. 7.3).
func (s *Service) SetMarketingConsent(ctx context.Context, userID int64, on bool) error {
	err := s.store.InTx(ctx, func(tx *store.Tx) error { return tx.Privacy().SetCustomerConsents(ctx, userID, false, &on) })
	if err != nil {
		return fmt.Errorf("marketing consent of %d: %w", userID, err)
	}
	return nil
}
