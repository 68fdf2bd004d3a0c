package store

import (
	"context"
	"fmt"
)

// Privacy (CONTRACT §11; docs/privacy.md): the privacy notice acknowledgement and
// the optional marketing consent, each stored as the time it was given.

// SetReservationConsents records, at the transaction's time, the consents given
// with a booking; a false one is left unset.
func (tx *Tx) SetReservationConsents(ctx context.Context, id int64, privacyAck, marketing bool) error {
	_, err := tx.Exec(ctx, `UPDATE reservation SET
		privacy_ack_at = CASE WHEN $2 THEN $4 ELSE privacy_ack_at END,
		marketing_consent_at = CASE WHEN $3 THEN $4 ELSE marketing_consent_at END
		WHERE id_reservation = $1`, id, privacyAck, marketing, tx.Now)
	if err != nil {
		return fmt.Errorf("set consents of reservation %d: %w", id, err)
	}
	return nil
}

// SetCustomerConsents records the consents given at registration. The marketing
// consent is given or withdrawn as sent (nil: unchanged).
func (tx *Tx) SetCustomerConsents(ctx context.Context, id int64, privacyAck bool, marketing *bool) error {
	set, withdraw := marketing != nil && *marketing, marketing != nil && !*marketing
	_, err := tx.Exec(ctx, `UPDATE customer SET
		privacy_ack_at = CASE WHEN $2 THEN $5 ELSE privacy_ack_at END,
		marketing_consent_at = CASE WHEN $3 THEN $5 WHEN $4 THEN NULL ELSE marketing_consent_at END
		WHERE id_customer = $1`, id, privacyAck, set, withdraw, tx.Now)
	if err != nil {
		return fmt.Errorf("set consents of customer %d: %w", id, err)
	}
	return nil
}
