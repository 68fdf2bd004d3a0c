package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
)

// The reservation tallies (the history's count without a search, and each customer's
// and vehicle's, with one) equal a count of the rows after inserts of one row (every
// booking) and of many rows in one statement (a bulk load: on PostgreSQL the trigger
// runs once for the statement), in every status, and after status changes and deletes
// (docs/performance.md#history-search-tallies-and-two-page-plans).
func TestTalliesCountTheRows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		ctx := context.Background()
		entry := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
		err := st.InTx(ctx, func(tx *store.Tx) error {
			if _, err := tx.Exec(ctx, `INSERT INTO main_service (name) VALUES ('ECO')`); err != nil {
				return err
			}
			for i := range 12 {
				c, _, err := tx.Customers().FindOrCreateCustomerByPhone(ctx, store.NewCustomer{FullName: fmt.Sprint("Cliente ", i%4), Phone: fmt.Sprintf("+3460000000%d", i%4)})
				if err != nil {
					return err
				}
				v, _, err := tx.Customers().FindOrCreateVehicleByPlate(ctx, reservation.Vehicle{LicensePlate: fmt.Sprintf("%04dBCD", i%3), Brand: "B", Model: "M", Color: "C", Type: "TURISMO"})
				if err != nil {
					return err
				}
				if _, err := tx.Reservations().InsertReservation(ctx, store.NewReservation{Entry: entry.AddDate(0, 0, i), TotalPrice: 100,
					CustomerID: c.ID, VehicleID: v.ID, MainServiceID: 1}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		exec := func(q string) {
			t.Helper()
			if _, err := st.WriteDB().ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		// One statement, many rows, in three statuses.
		exec(`INSERT INTO reservation (reservation_date, entry_date, exit_date, status, total_price_cents, is_paid, payment_method,
				id_customer, id_vehicle, id_main_service, updated_at)
			SELECT reservation_date, entry_date, exit_date,
				CASE id_reservation % 3 WHEN 0 THEN 'PENDIENTE' WHEN 1 THEN 'CANCELADA' ELSE 'FINALIZADA' END, total_price_cents,
				id_reservation % 3 = 2, CASE WHEN id_reservation % 3 = 2 THEN 'TARJETA' END, id_customer, id_vehicle, id_main_service, updated_at
			FROM reservation`)
		check := func(when string) {
			t.Helper()
			// Each status's total, over the history's shards.
			rows, err := st.WriteDB().QueryContext(ctx, `SELECT s.status, COALESCE((SELECT SUM(n) FROM reservation_tally t WHERE t.status = s.status), 0),
				(SELECT COUNT(*) FROM reservation r WHERE r.status = s.status)
				FROM (SELECT 'PENDIENTE' AS status UNION ALL SELECT 'EN CURSO' UNION ALL SELECT 'FINALIZADA' UNION ALL SELECT 'CANCELADA') s`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			for rows.Next() {
				var status string
				var tally, count int
				if err := rows.Scan(&status, &tally, &count); err != nil {
					t.Fatal(err)
				}
				if tally != count {
					t.Errorf("%s: %s tallied %d, %d rows", when, status, tally, count)
				}
			}
			customers, vehicles := "customer_tally", "vehicle_tally"
			if d == store.Postgres {
				customers, vehicles = "customer_search", "vehicle_search"
			}
			for _, c := range []struct{ table, key string }{{customers, "id_customer"}, {vehicles, "id_vehicle"}} {
				var wrong int
				if err := st.WriteDB().QueryRowContext(ctx, `SELECT COUNT(*) FROM `+c.table+` t WHERE
					t.tally_pendiente <> (SELECT COUNT(*) FROM reservation r WHERE r.`+c.key+` = t.`+c.key+` AND r.status = 'PENDIENTE')
					OR t.tally_en_curso <> (SELECT COUNT(*) FROM reservation r WHERE r.`+c.key+` = t.`+c.key+` AND r.status = 'EN CURSO')
					OR t.tally_finalizada <> (SELECT COUNT(*) FROM reservation r WHERE r.`+c.key+` = t.`+c.key+` AND r.status = 'FINALIZADA')
					OR t.tally_cancelada <> (SELECT COUNT(*) FROM reservation r WHERE r.`+c.key+` = t.`+c.key+` AND r.status = 'CANCELADA')`).Scan(&wrong); err != nil {
					t.Fatal(err)
				}
				if wrong != 0 {
					t.Errorf("%s: %d rows of %s disagree with the reservations", when, wrong, c.table)
				}
			}
		}
		check("after the inserts")
		var total int
		if err := st.WriteDB().QueryRowContext(ctx, `SELECT COALESCE(SUM(n), 0) FROM reservation_tally`).Scan(&total); err != nil || total != 24 {
			t.Fatalf("%d reservations tallied, want 24 (%v)", total, err)
		}
		exec(`UPDATE reservation SET status = 'EN CURSO' WHERE status = 'PENDIENTE' AND id_reservation % 2 = 0`)
		exec(`DELETE FROM reservation WHERE status = 'CANCELADA' AND id_reservation % 2 = 1`)
		check("after status changes and deletes")
	})
}
