package database_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"parking/internal/store"
	"parking/internal/storetest"
)

// Both dialects must carry the same migrations, so the schema never drifts.
func TestMigrationsMatchAcrossDialects(t *testing.T) {
	lite, err := store.MigrationNames(store.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := store.MigrationNames(store.Postgres)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lite, pg) || len(lite) == 0 {
		t.Errorf("sqlite migrations %v differ from postgres %v", lite, pg)
	}
}

// Migrating twice is harmless, and the schema's constraints hold on both databases.
func TestSchemaConstraints(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		ctx := context.Background()
		if err := st.Migrate(ctx); err != nil {
			t.Fatalf("second migrate: %v", err)
		}
		now := st.Clock()()
		mustExec := func(q string, args ...any) {
			t.Helper()
			if _, err := st.WriteDB().ExecContext(ctx, q, args...); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		mustExec(`INSERT INTO customer (id_customer, full_name, phone, type, created_at) VALUES (1, 'A', '600', 'NO-REGISTRADO', $1)`, now)
		mustExec(`INSERT INTO vehicle (id_vehicle, license_plate, type, created_at) VALUES (1, 'P1', 'COCHE', $1)`, now)
		mustExec(`INSERT INTO main_service (id_main_service, name) VALUES (1, 'ECO')`)
		insert := `INSERT INTO reservation (reservation_date, entry_date, exit_date, status, total_price_cents, payment_method,
			id_customer, id_vehicle, id_main_service, updated_at, is_paid) VALUES ($1, $2, $3, $4, $5, $6, 1, 1, 1, $1, $7)`
		mustExec(insert, now, now, now.Add(time.Hour), "PENDIENTE", 100, nil, false)

		refused := []struct {
			name string
			q    string
			args []any
			uniq bool
		}{
			{"unknown status", insert, []any{now, now, nil, "PERDIDA", 100, nil, false}, false},
			{"negative total", insert, []any{now, now, nil, "PENDIENTE", -1, nil, false}, false},
			{"exit before entry", insert, []any{now, now, now.Add(-time.Hour), "PENDIENTE", 1, nil, false}, false},
			{"exit equal to entry", insert, []any{now, now, now, "PENDIENTE", 1, nil, false}, false},
			{"unknown payment method", insert, []any{now, now, nil, "PENDIENTE", 1, "BITCOIN", false}, false},
			{"finalized without payment", insert, []any{now, now, nil, "FINALIZADA", 1, nil, false}, false},
			{"duplicate phone", `INSERT INTO customer (full_name, phone, type, created_at) VALUES ('B', '600', 'NO-REGISTRADO', $1)`, []any{now}, true},
			{"duplicate plate", `INSERT INTO vehicle (license_plate, type, created_at) VALUES ('P1', 'MOTO', $1)`, []any{now}, true},
			{"unknown customer type", `INSERT INTO customer (full_name, phone, type, created_at) VALUES ('C', '601', 'VIP', $1)`, []any{now}, false},
			{"duplicate customer–vehicle link", `INSERT INTO customer_vehicle (id_customer, id_vehicle, created_at) VALUES (1, 1, $1), (1, 1, $1)`, []any{now}, true},
		}
		for _, c := range refused {
			_, err := st.WriteDB().ExecContext(ctx, c.q, c.args...)
			if err == nil {
				t.Errorf("%s: accepted", c.name)
				continue
			}
			if c.uniq && !store.IsUniqueViolation(err) {
				t.Errorf("%s: err = %v, want a unique violation", c.name, err)
			}
			if !c.uniq && !store.IsCheckViolation(err) {
				t.Errorf("%s: err = %v, want a check violation", c.name, err)
			}
		}

		// Photos go with their reservation.
		mustExec(`INSERT INTO photo_evidence (id_reservation, file_path, taken_at) SELECT id_reservation, 'https://x/1.jpg', $1 FROM reservation`, now)
		mustExec(`DELETE FROM reservation`)
		var n int
		if err := st.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM photo_evidence`).Scan(&n); err != nil || n != 0 {
			t.Errorf("photos left after their reservation was removed: %d (%v)", n, err)
		}
	})
}

// Migration 0023 applies to a database that already holds bookings: they get
// Spanish, and accounts no language (docs/languages.md#the-bookings-language).
func TestLanguageMigrationOnData(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		ctx := context.Background()
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := st.WriteDB().ExecContext(ctx, q, args...); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		// Back to the schema before 0023, with a customer and a reservation in it.
		exec(`ALTER TABLE reservation DROP COLUMN language`)
		exec(`ALTER TABLE customer DROP COLUMN language`)
		exec(`DELETE FROM schema_migrations WHERE name = '0023_language.sql'`)
		now := st.Clock()()
		exec(`INSERT INTO customer (id_customer, full_name, phone, type, created_at) VALUES (1, 'A', '600', 'NO-REGISTRADO', $1)`, now)
		exec(`INSERT INTO vehicle (id_vehicle, license_plate, type, created_at) VALUES (1, 'P1', 'COCHE', $1)`, now)
		exec(`INSERT INTO main_service (id_main_service, name) VALUES (1, 'ECO')`)
		exec(`INSERT INTO reservation (reservation_date, entry_date, status, total_price_cents,
			id_customer, id_vehicle, id_main_service, updated_at) VALUES ($1, $1, 'PENDIENTE', 100, 1, 1, 1, $1)`, now)

		if err := st.Migrate(ctx); err != nil {
			t.Fatalf("migrate: %v", err)
		}
		var resLang string
		var custLang *string
		if err := st.DB().QueryRowContext(ctx, `SELECT r.language, c.language FROM reservation r
			JOIN customer c ON c.id_customer = r.id_customer`).Scan(&resLang, &custLang); err != nil {
			t.Fatal(err)
		}
		if resLang != "es" || custLang != nil {
			t.Errorf("after 0023: reservation language %q, customer language %v; want es and NULL", resLang, custLang)
		}
	})
}
