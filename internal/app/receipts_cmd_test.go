package app_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// `parking receipts verify` checks the chain of VeriFactu records and `export`
// writes it as CSV; a record altered behind the service's back (the immutability
// trigger dropped by hand) fails the verification.
func TestReceiptsCommand(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg := apptest.Config(t, d)
		e := webtest.AdminEnvWith(t, cfg)
		for i := 0; i < 3; i++ {
			id := webtest.CustBook(t, e.A, fmt.Sprintf("61100000%d", i), fmt.Sprintf("%04dXYZ", i), "COCHE",
				clocktest.D("2027-05-01")+"T10:00", clocktest.D("2027-05-04")+"T11:00", 1, nil)
			e.Exec(`UPDATE reservation SET cod_parking_spot = $2 WHERE id_reservation = $1`, id, fmt.Sprintf("X-%d", i))
			webtest.CustSetStatus(t, e.A, id, reservation.InCourse)
			if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", id), map[string]any{"paymentMethod": "EFECTIVO"}); st != 200 {
				t.Fatalf("finalize: %d %v", st, b)
			}
		}
		run := func(args ...string) (int, string, string) {
			var out, errw bytes.Buffer
			env := map[string]string{"PARKING_DATABASE_URL": cfg.DatabaseURL}
			code := app.Run(context.Background(), args, func(k string) string { return env[k] }, &out, &errw)
			return code, out.String(), errw.String()
		}
		if code, out, errs := run("receipts", "verify"); code != 0 || out != "3 records, chain verified\n" {
			t.Errorf("verify: %d %q %q", code, out, errs)
		}
		code, out, errs := run("receipts", "export")
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		year := clocktest.Base().Format("2006")
		if code != 0 || err != nil || len(rows) != 4 || rows[3][2] != "F"+year+"-000003" || rows[3][7] != rows[2][9] {
			t.Errorf("export: %d %v %q %q", code, err, out, errs)
		}

		// Altered behind the service's back: the fingerprint no longer matches.
		if d == store.Postgres {
			e.Exec(`ALTER TABLE receipt DISABLE TRIGGER receipt_immutable`)
		} else {
			e.Exec(`DROP TRIGGER receipt_immutable_update`)
		}
		e.Exec(`UPDATE receipt SET total_cents = total_cents + 100, base_cents = base_cents + 100 WHERE seq = 2`)
		if code, _, errs := run("receipts", "verify"); code != 1 || !strings.Contains(errs, "record 2 (F"+year+"-000002): fingerprint") {
			t.Errorf("verify after tampering: %d %q", code, errs)
		}
	})
}
