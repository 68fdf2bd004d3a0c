package store

import (
	"context"
	"fmt"

	"parking/internal/reservation"
)

// CustomerContact is the customer data an administrator edits.
type CustomerContact struct {
	FullName string
	Phone    string
	Email    *string
}

// UpdateCustomerContact rewrites a customer's name, phone and email. A phone (or an
// account email) used by another customer is a unique violation. A changed email is
// no longer verified (docs/accounts.md#email-verification).
func (tx CustomersTx) UpdateCustomerContact(ctx context.Context, id int64, c CustomerContact) error {
	if _, err := tx.Exec(ctx, `UPDATE customer SET full_name = $2, phone = $3, email = $4,
		email_verified_at = CASE WHEN email IS NOT DISTINCT FROM $4 THEN email_verified_at END WHERE id_customer = $1`,
		id, c.FullName, c.Phone, c.Email); err != nil {
		return fmt.Errorf("update customer %d: %w", id, err)
	}
	return nil
}

// CustomerWithPhone returns the id of the customer other than exclude that has
// phone; ErrNotFound if none.
func (tx CustomersTx) CustomerWithPhone(ctx context.Context, phone string, exclude int64) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, `SELECT id_customer FROM customer WHERE phone = $1 AND id_customer <> $2`, phone, exclude).Scan(&id)
	if err != nil {
		return 0, notFound(err)
	}
	return id, nil
}

// AccountWithEmail returns the id of the account (ADMIN or REGISTRADO) other than
// exclude whose login email is email, ignoring case; ErrNotFound if none.
func (tx CustomersTx) AccountWithEmail(ctx context.Context, email string, exclude int64) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, `SELECT id_customer FROM customer
		WHERE lower(email) = lower($1) AND type <> 'NO-REGISTRADO' AND id_customer <> $2`, email, exclude).Scan(&id)
	if err != nil {
		return 0, notFound(err)
	}
	return id, nil
}

// UpdateVehicleDetails rewrites brand, model, color and type; never the plate
// (docs/reservations.md#vehicle: the plate never changes after creation).
func (tx CustomersTx) UpdateVehicleDetails(ctx context.Context, v reservation.Vehicle) error {
	if _, err := tx.Exec(ctx, `UPDATE vehicle SET brand = $2, model = $3, color = $4, type = $5 WHERE id_vehicle = $1`,
		v.ID, v.Brand, v.Model, v.Color, v.Type); err != nil {
		return fmt.Errorf("update vehicle %d: %w", v.ID, err)
	}
	return nil
}
