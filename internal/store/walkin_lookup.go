package store

import (
	"context"
	"database/sql"
	"fmt"

	"parking/internal/reservation"
)

// KnownCustomer is a customer and the vehicle of their latest booking, found by
// phone or plate for the walk-in form (docs/reservations.md#walk-in-lookup).
type KnownCustomer struct {
	FullName string
	Phone    string
	Email    string
	Vehicle  reservation.Vehicle
}

// KnownByPhone finds the latest booking of the customer with this stored phone
// (E.164); ErrNotFound when none.
func (s Customers) KnownByPhone(ctx context.Context, phone string) (KnownCustomer, error) {
	return s.known(ctx, `c.phone = $1`, phone)
}

// KnownByPlate finds the latest booking of the vehicle with this stored plate;
// ErrNotFound when none.
func (s Customers) KnownByPlate(ctx context.Context, plate string) (KnownCustomer, error) {
	return s.known(ctx, `v.license_plate = $1`, plate)
}

func (s Customers) known(ctx context.Context, where, arg string) (KnownCustomer, error) {
	var k KnownCustomer
	var phone, email sql.NullString
	err := s.QueryRow(ctx, `SELECT c.full_name, c.phone, c.email, v.license_plate, v.brand, v.model, v.color, v.type
		FROM reservation r
		JOIN customer c ON c.id_customer = r.id_customer
		JOIN vehicle v ON v.id_vehicle = r.id_vehicle
		WHERE `+where+`
		ORDER BY r.entry_date DESC, r.id_reservation DESC LIMIT 1`, arg).
		Scan(&k.FullName, &phone, &email, &k.Vehicle.LicensePlate, &k.Vehicle.Brand, &k.Vehicle.Model, &k.Vehicle.Color, &k.Vehicle.Type)
	if noRows(err) {
		return k, ErrNotFound
	}
	if err != nil {
		return k, fmt.Errorf("known customer: %w", err)
	}
	k.Phone, k.Email = phone.String, email.String
	return k, nil
}
