package store

import (
	"context"
	"fmt"

	"parking/internal/pricing"
)

// LoadCatalog reads the whole catalog, inactive entries included.
func (s Catalog) LoadCatalog(ctx context.Context) (pricing.Catalog, error) {
	var c pricing.Catalog
	rows, err := s.Query(ctx, `SELECT id_main_service, name, description, active FROM main_service ORDER BY id_main_service`)
	if err != nil {
		return c, fmt.Errorf("load main services: %w", err)
	}
	for rows.Next() {
		var m pricing.MainService
		if err := rows.Scan(&m.ID, &m.Name, &m.Description, &m.Active); err != nil {
			rows.Close()
			return c, err
		}
		c.MainServices = append(c.MainServices, m)
	}
	if err := closeRows(rows); err != nil {
		return c, err
	}

	rows, err = s.Query(ctx, `SELECT id_rate, id_main_service, min_days, max_days, daily_price_cents FROM service_rate ORDER BY id_main_service, min_days`)
	if err != nil {
		return c, fmt.Errorf("load rates: %w", err)
	}
	for rows.Next() {
		var r pricing.Rate
		if err := rows.Scan(&r.ID, &r.MainService, &r.MinDays, &r.MaxDays, &r.DailyPrice); err != nil {
			rows.Close()
			return c, err
		}
		c.Rates = append(c.Rates, r)
	}
	if err := closeRows(rows); err != nil {
		return c, err
	}

	rows, err = s.Query(ctx, `SELECT vehicle_type, multiplier_bp FROM vehicle_type_coefficient ORDER BY vehicle_type`)
	if err != nil {
		return c, fmt.Errorf("load coefficients: %w", err)
	}
	for rows.Next() {
		var k pricing.Coefficient
		if err := rows.Scan(&k.VehicleType, &k.Multiplier); err != nil {
			rows.Close()
			return c, err
		}
		c.Coefficients = append(c.Coefficients, k)
	}
	if err := closeRows(rows); err != nil {
		return c, err
	}

	rows, err = s.Query(ctx, `SELECT id, name, price_cents, active FROM additional_service ORDER BY id`)
	if err != nil {
		return c, fmt.Errorf("load additional services: %w", err)
	}
	for rows.Next() {
		var e pricing.Extra
		if err := rows.Scan(&e.ID, &e.Name, &e.Price, &e.Active); err != nil {
			rows.Close()
			return c, err
		}
		c.Extras = append(c.Extras, e)
	}
	return c, closeRows(rows)
}

// SeedCatalog writes the given catalog when the database has no main service yet,
// and reports whether it did. Ids are assigned by the database.
func (s Catalog) SeedCatalog(ctx context.Context, c pricing.Catalog) (bool, error) {
	seeded := false
	err := inTx(ctx, s.Engine, func(tx *Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM main_service`).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
		ids := map[int64]int64{}
		for _, m := range c.MainServices {
			var id int64
			if err := tx.QueryRow(ctx, `INSERT INTO main_service (name, description, active) VALUES ($1, $2, $3) RETURNING id_main_service`,
				m.Name, m.Description, m.Active).Scan(&id); err != nil {
				return fmt.Errorf("seed main service %s: %w", m.Name, err)
			}
			ids[m.ID] = id
		}
		for _, r := range c.Rates {
			if _, err := tx.Exec(ctx, `INSERT INTO service_rate (id_main_service, min_days, max_days, daily_price_cents) VALUES ($1, $2, $3, $4)`,
				ids[r.MainService], r.MinDays, r.MaxDays, int64(r.DailyPrice)); err != nil {
				return fmt.Errorf("seed rate: %w", err)
			}
		}
		for _, k := range c.Coefficients {
			if _, err := tx.Exec(ctx, `INSERT INTO vehicle_type_coefficient (vehicle_type, multiplier_bp) VALUES ($1, $2) ON CONFLICT (vehicle_type) DO NOTHING`,
				k.VehicleType, int64(k.Multiplier)); err != nil {
				return fmt.Errorf("seed coefficient: %w", err)
			}
		}
		for _, e := range c.Extras {
			if _, err := tx.Exec(ctx, `INSERT INTO additional_service (name, price_cents, active) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`,
				e.Name, int64(e.Price), e.Active); err != nil {
				return fmt.Errorf("seed additional service: %w", err)
			}
		}
		seeded = true
		return nil
	})
	return seeded, err
}
