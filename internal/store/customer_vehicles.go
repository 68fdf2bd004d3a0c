package store

import (
	"context"

	"parking/internal/reservation"
)

// CustomerVehicles reads the vehicles linked to a customer, oldest link first:
// what the booking page offers a logged-in customer to pick from, without the
// reservations that CustomerArea also reads.
func (s Customers) CustomerVehicles(ctx context.Context, customerID int64) ([]reservation.Vehicle, error) {
	return customerVehicles(ctx, s.Engine, customerID)
}
