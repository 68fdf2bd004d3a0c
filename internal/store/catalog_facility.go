package store

import (
	"context"
	"fmt"

	"parking/internal/settings"
)

// The facility settings row (migration 0010, docs/settings.md). It has one row, id 1;
// a database without it reads as settings.Defaults(0), so reads never fail on a
// fresh database between migration and seeding.

const facilityColumns = `capacity, sellable, name, tax_id, address, phone, email, vat_bp, photo_retention_days, charge_overstay, exit_grace_minutes,
	arrival_es, arrival_en, arrival_de, arrival_fr`

func scanFacility(row rowScanner) (settings.Facility, error) {
	var f settings.Facility
	err := row.Scan(&f.Capacity, &f.Sellable, &f.Name, &f.TaxID, &f.Address, &f.Phone, &f.Email, &f.VATBasisPoints, &f.PhotoRetentionDays, &f.ChargeOverstay, &f.ExitGraceMinutes,
		&f.Arrival.ES, &f.Arrival.EN, &f.Arrival.DE, &f.Arrival.FR)
	if noRows(err) {
		return settings.Defaults(0), nil
	}
	if err != nil {
		return f, fmt.Errorf("read facility settings: %w", err)
	}
	return f, nil
}

// Facility reads the settings.
func (s Catalog) Facility(ctx context.Context) (settings.Facility, error) {
	return scanFacility(s.QueryRow(ctx, `SELECT `+facilityColumns+` FROM facility_settings WHERE id = 1`))
}

// Facility reads the settings inside a write transaction, so a check against them
// (capacity) and the write it guards see the same values.
func (tx CatalogTx) Facility(ctx context.Context) (settings.Facility, error) {
	return scanFacility(tx.QueryRow(ctx, `SELECT `+facilityColumns+` FROM facility_settings WHERE id = 1`))
}

// SeedFacility writes f when the database has no settings yet, and reports whether
// it did. Several instances starting at once write it once.
func (s Catalog) SeedFacility(ctx context.Context, f settings.Facility) (seeded bool, err error) {
	err = inTx(ctx, s.Engine, func(tx *Tx) error {
		res, err := tx.Exec(ctx, `INSERT INTO facility_settings (id, `+facilityColumns+`, updated_at)
			VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) ON CONFLICT DO NOTHING`,
			f.Capacity, f.Sellable, f.Name, f.TaxID, f.Address, f.Phone, f.Email, f.VATBasisPoints, f.PhotoRetentionDays, f.ChargeOverstay, f.ExitGraceMinutes,
			f.Arrival.ES, f.Arrival.EN, f.Arrival.DE, f.Arrival.FR, tx.Now)
		if err != nil {
			return fmt.Errorf("seed facility settings: %w", err)
		}
		n, err := res.RowsAffected()
		seeded = n == 1
		return err
	})
	return seeded, err
}

// SaveFacility replaces the settings and returns what was there before (for the
// audit trail), inside the caller's transaction.
func (tx CatalogTx) SaveFacility(ctx context.Context, f settings.Facility) (before settings.Facility, err error) {
	if before, err = tx.Facility(ctx); err != nil {
		return before, err
	}
	_, err = tx.Exec(ctx, `INSERT INTO facility_settings (id, `+facilityColumns+`, updated_at)
		VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
		ON CONFLICT (id) DO UPDATE SET capacity = excluded.capacity, sellable = excluded.sellable,
			name = excluded.name, tax_id = excluded.tax_id, address = excluded.address, phone = excluded.phone,
			email = excluded.email, vat_bp = excluded.vat_bp, photo_retention_days = excluded.photo_retention_days,
			charge_overstay = excluded.charge_overstay, exit_grace_minutes = excluded.exit_grace_minutes,
			arrival_es = excluded.arrival_es, arrival_en = excluded.arrival_en,
			arrival_de = excluded.arrival_de, arrival_fr = excluded.arrival_fr, updated_at = excluded.updated_at`,
		f.Capacity, f.Sellable, f.Name, f.TaxID, f.Address, f.Phone, f.Email, f.VATBasisPoints, f.PhotoRetentionDays, f.ChargeOverstay, f.ExitGraceMinutes,
		f.Arrival.ES, f.Arrival.EN, f.Arrival.DE, f.Arrival.FR, tx.Now)
	if err != nil {
		return before, fmt.Errorf("save facility settings: %w", err)
	}
	return before, nil
}
