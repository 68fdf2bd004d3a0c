package store

import (
	"context"
	"fmt"

	"parking/internal/pricing"
)

// Catalog writes (docs/pricing.md#catalog: administrators change the catalog). Each runs in the
// caller's transaction; the caller reloads the pricing snapshot after commit.

// MainServiceForUpdate reads a main service and, on PostgreSQL, locks its row, so
// that edits of its rate bands are made one at a time (the non-overlap check reads
// the other bands first). SQLite write transactions are one at a time already.
func (tx CatalogTx) MainServiceForUpdate(ctx context.Context, id int64) (pricing.MainService, error) {
	q := `SELECT id_main_service, name, description, active FROM main_service WHERE id_main_service = $1`
	if tx.Dialect() == Postgres {
		q += ` FOR UPDATE`
	}
	var m pricing.MainService
	if err := tx.QueryRow(ctx, q, id).Scan(&m.ID, &m.Name, &m.Description, &m.Active); err != nil {
		return m, fmt.Errorf("main service %d: %w", id, notFound(err))
	}
	return m, nil
}

// InsertMainService adds a main service; a used name is a unique violation.
func (tx CatalogTx) InsertMainService(ctx context.Context, m pricing.MainService) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, `INSERT INTO main_service (name, description, active) VALUES ($1, $2, $3) RETURNING id_main_service`,
		m.Name, m.Description, m.Active).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("insert main service: %w", err)
	}
	return id, nil
}

// UpdateMainService rewrites name, description and active flag.
func (tx CatalogTx) UpdateMainService(ctx context.Context, m pricing.MainService) error {
	if _, err := tx.Exec(ctx, `UPDATE main_service SET name = $2, description = $3, active = $4 WHERE id_main_service = $1`,
		m.ID, m.Name, m.Description, m.Active); err != nil {
		return fmt.Errorf("update main service %d: %w", m.ID, err)
	}
	return nil
}

// RatesOfService lists the rate bands of a main service by min_days.
func (tx CatalogTx) RatesOfService(ctx context.Context, mainService int64) ([]pricing.Rate, error) {
	rows, err := tx.Query(ctx, `SELECT id_rate, id_main_service, min_days, max_days, daily_price_cents
		FROM service_rate WHERE id_main_service = $1 ORDER BY min_days, id_rate`, mainService)
	if err != nil {
		return nil, fmt.Errorf("rates of %d: %w", mainService, err)
	}
	var out []pricing.Rate
	for rows.Next() {
		var r pricing.Rate
		if err := rows.Scan(&r.ID, &r.MainService, &r.MinDays, &r.MaxDays, &r.DailyPrice); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, r)
	}
	return out, closeRows(rows)
}

// Rate reads one rate band.
func (tx CatalogTx) Rate(ctx context.Context, id int64) (pricing.Rate, error) {
	var r pricing.Rate
	err := tx.QueryRow(ctx, `SELECT id_rate, id_main_service, min_days, max_days, daily_price_cents FROM service_rate WHERE id_rate = $1`, id).
		Scan(&r.ID, &r.MainService, &r.MinDays, &r.MaxDays, &r.DailyPrice)
	if err != nil {
		return r, fmt.Errorf("rate %d: %w", id, notFound(err))
	}
	return r, nil
}

// InsertRate adds a rate band.
func (tx CatalogTx) InsertRate(ctx context.Context, r pricing.Rate) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, `INSERT INTO service_rate (id_main_service, min_days, max_days, daily_price_cents)
		VALUES ($1, $2, $3, $4) RETURNING id_rate`, r.MainService, r.MinDays, r.MaxDays, int64(r.DailyPrice)).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("insert rate: %w", err)
	}
	return id, nil
}

// UpdateRate rewrites a rate band (its main service included).
func (tx CatalogTx) UpdateRate(ctx context.Context, r pricing.Rate) error {
	if _, err := tx.Exec(ctx, `UPDATE service_rate SET id_main_service = $2, min_days = $3, max_days = $4, daily_price_cents = $5
		WHERE id_rate = $1`, r.ID, r.MainService, r.MinDays, r.MaxDays, int64(r.DailyPrice)); err != nil {
		return fmt.Errorf("update rate %d: %w", r.ID, err)
	}
	return nil
}

// DeleteRate removes a rate band; it reports whether one was removed.
func (tx CatalogTx) DeleteRate(ctx context.Context, id int64) (bool, error) {
	res, err := tx.Exec(ctx, `DELETE FROM service_rate WHERE id_rate = $1`, id)
	return applied(res, err, "delete rate %d", id)
}

// Coefficient reads the multiplier of a vehicle type (stored upper-case).
func (tx CatalogTx) Coefficient(ctx context.Context, vehicleType string) (pricing.Coefficient, error) {
	var k pricing.Coefficient
	err := tx.QueryRow(ctx, `SELECT vehicle_type, multiplier_bp FROM vehicle_type_coefficient WHERE vehicle_type = $1`, vehicleType).
		Scan(&k.VehicleType, &k.Multiplier)
	if err != nil {
		return k, fmt.Errorf("coefficient of %s: %w", vehicleType, notFound(err))
	}
	return k, nil
}

// InsertCoefficient adds a vehicle type; an existing one is a unique violation.
func (tx CatalogTx) InsertCoefficient(ctx context.Context, k pricing.Coefficient) error {
	if _, err := tx.Exec(ctx, `INSERT INTO vehicle_type_coefficient (vehicle_type, multiplier_bp) VALUES ($1, $2)`,
		k.VehicleType, int64(k.Multiplier)); err != nil {
		return fmt.Errorf("insert coefficient %s: %w", k.VehicleType, err)
	}
	return nil
}

// UpdateCoefficient changes the multiplier of a vehicle type.
func (tx CatalogTx) UpdateCoefficient(ctx context.Context, k pricing.Coefficient) error {
	if _, err := tx.Exec(ctx, `UPDATE vehicle_type_coefficient SET multiplier_bp = $2 WHERE vehicle_type = $1`,
		k.VehicleType, int64(k.Multiplier)); err != nil {
		return fmt.Errorf("update coefficient %s: %w", k.VehicleType, err)
	}
	return nil
}

// Extra reads one additional service.
func (tx CatalogTx) Extra(ctx context.Context, id int64) (pricing.Extra, error) {
	var e pricing.Extra
	err := tx.QueryRow(ctx, `SELECT id, name, price_cents, active FROM additional_service WHERE id = $1`, id).
		Scan(&e.ID, &e.Name, &e.Price, &e.Active)
	if err != nil {
		return e, fmt.Errorf("additional service %d: %w", id, notFound(err))
	}
	return e, nil
}

// InsertExtra adds an additional service; a used name is a unique violation.
func (tx CatalogTx) InsertExtra(ctx context.Context, e pricing.Extra) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, `INSERT INTO additional_service (name, price_cents, active) VALUES ($1, $2, $3) RETURNING id`,
		e.Name, int64(e.Price), e.Active).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("insert additional service: %w", err)
	}
	return id, nil
}

// UpdateExtra rewrites name, price and active flag. Booked reservations keep the
// price they were booked with (reservation_additional_service.price_cents).
func (tx CatalogTx) UpdateExtra(ctx context.Context, e pricing.Extra) error {
	if _, err := tx.Exec(ctx, `UPDATE additional_service SET name = $2, price_cents = $3, active = $4 WHERE id = $1`,
		e.ID, e.Name, int64(e.Price), e.Active); err != nil {
		return fmt.Errorf("update additional service %d: %w", e.ID, err)
	}
	return nil
}
