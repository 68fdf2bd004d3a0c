package store

import (
	"context"
	"errors"
	"fmt"

	"parking/internal/database"
	"parking/internal/reservation"
)

// FindOrCreateBooker is what a booking does before its reservation:
// FindOrCreateCustomerByPhone, FindOrCreateVehicleByPlate and LinkCustomerVehicle of
// the two, with exactly their outcome (nothing stored is rewritten). On PostgreSQL
// it is one statement instead of three to five round trips (docs/performance.md);
// when that statement cannot see a customer or vehicle another transaction committed
// while it ran (it waited for that row, but its snapshot predates it), it links
// nothing and the three steps run one by one, as they always do on SQLite. The
// caller checks the vehicle's stored type and fails its transaction on a mismatch,
// which undoes the link as well.
func (tx CustomersTx) FindOrCreateBooker(ctx context.Context, c NewCustomer, v reservation.Vehicle) (reservation.Customer, reservation.Vehicle, error) {
	if tx.Dialect() == Postgres {
		veh := v
		// Send: BEGIN and the statements the caller queued (ReserveID) go in the same
		// round trip.
		cust, err := scanCustomer(scanFunc(func(dest ...any) error {
			return tx.Send(ctx, database.Stmt{Query: findOrCreateBookerSQL,
				Args: []any{c.FullName, c.Phone, c.Email, tx.Now, v.LicensePlate, v.Brand, v.Model, v.Color, v.Type},
				Dest: append(dest, &veh.ID, &veh.LicensePlate, &veh.Brand, &veh.Model, &veh.Color, &veh.Type)})
		}))
		if err == nil {
			return cust, veh, nil
		}
		if !errors.Is(err, ErrNotFound) {
			return cust, veh, fmt.Errorf("find or create customer and vehicle: %w", err)
		}
	}
	cust, _, err := tx.FindOrCreateCustomerByPhone(ctx, c)
	if err != nil {
		return cust, v, err
	}
	veh, _, err := tx.FindOrCreateVehicleByPlate(ctx, v)
	if err != nil {
		return cust, veh, err
	}
	return cust, veh, tx.LinkCustomerVehicle(ctx, cust.ID, veh.ID)
}

// findOrCreateBookerSQL: the customer by phone ($2) and the vehicle by plate ($5),
// each inserted (ON CONFLICT DO NOTHING, as the one-by-one steps) or else read, and
// their link; one row of the customer's and the vehicle's columns, or none when
// either was committed by another transaction while this statement waited for it.
const findOrCreateBookerSQL = `WITH
	c_new AS (INSERT INTO customer (full_name, phone, email, type, created_at)
		VALUES ($1, $2, $3, 'NO-REGISTRADO', $4)
		ON CONFLICT (phone) DO NOTHING
		RETURNING ` + customerColumns + `),
	c AS (SELECT ` + customerColumns + ` FROM c_new
		UNION ALL SELECT ` + customerColumns + ` FROM customer WHERE phone = $2 AND NOT EXISTS (SELECT 1 FROM c_new)),
	v_new AS (INSERT INTO vehicle (license_plate, brand, model, color, type, created_at)
		VALUES ($5, $6, $7, $8, $9, $4)
		ON CONFLICT (license_plate) DO NOTHING
		RETURNING id_vehicle, license_plate, brand, model, color, type),
	v AS (SELECT id_vehicle, license_plate, brand, model, color, type FROM v_new
		UNION ALL SELECT id_vehicle, license_plate, brand, model, color, type FROM vehicle
		WHERE license_plate = $5 AND NOT EXISTS (SELECT 1 FROM v_new)),
	l AS (INSERT INTO customer_vehicle (id_customer, id_vehicle, created_at)
		SELECT c.id_customer, v.id_vehicle, $4 FROM c, v
		ON CONFLICT (id_customer, id_vehicle) DO NOTHING)
	SELECT c.id_customer, c.full_name, c.phone, c.email, c.type, c.password_hash, c.created_at, c.email_verified_at, c.language,
		v.id_vehicle, v.license_plate, v.brand, v.model, v.color, v.type
	FROM c, v`
