package app_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"parking/internal/app"
	"parking/internal/pricing"
	"parking/internal/store"
	"parking/internal/storetest"
)

// A database holding phones and plates from before docs/input-rules.md: the service starts
// (the collisions do not block it), merges what is safe, and `parking duplicates
// list` shows staff what is left to resolve by hand.
func TestDuplicatesCommand(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		url := storetest.URL(t, d)
		ctx := context.Background()
		st, err := store.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Catalog().SeedCatalog(ctx, pricing.Default()); err != nil {
			t.Fatal(err)
		}
		err = st.InTx(ctx, func(tx *store.Tx) error {
			for _, q := range []string{
				`INSERT INTO customer (full_name, phone, email, type, password_hash, created_at) VALUES ('Rita', '611 222 333', 'rita@example.com', 'REGISTRADO', 'x', '2025-01-01 10:00:00')`,
				`INSERT INTO customer (full_name, phone, type, created_at) VALUES ('Otro', '611-222-333', 'NO-REGISTRADO', '2025-02-01 10:00:00')`,
				`INSERT INTO customer (full_name, phone, type, created_at) VALUES ('Ana', '622 333 444', 'NO-REGISTRADO', '2025-01-01 10:00:00')`,
				`INSERT INTO customer (full_name, phone, type, created_at) VALUES ('Ana bis', '622333444', 'NO-REGISTRADO', '2025-02-01 10:00:00')`,
				`INSERT INTO vehicle (license_plate, type, created_at) VALUES ('1234 ABC', 'COCHE', '2025-01-01 10:00:00')`,
				`INSERT INTO vehicle (license_plate, type, created_at) VALUES ('1234-abc', 'MOTO', '2025-02-01 10:00:00')`,
			} {
				if _, err := tx.Exec(ctx, q); err != nil {
					return err
				}
			}
			return nil
		})
		st.Close()
		if err != nil {
			t.Fatal(err)
		}

		var out, errw bytes.Buffer
		env := map[string]string{"PARKING_DATABASE_URL": url}
		code := app.Run(ctx, []string{"duplicates", "list"}, func(k string) string { return env[k] }, &out, &errw)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errw.String())
		}
		for _, want := range []string{
			`"611-222-333"`, "+34611222333", "Rita (REGISTRADO)", "a registered account shares the phone",
			`"1234-abc"`, "1234ABC", "same plate, another vehicle type", "MOTO",
		} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("output lacks %q:\n%s", want, out.String())
			}
		}
		if strings.Contains(out.String(), "622") {
			t.Errorf("the two booking-flow customers were merged, not listed:\n%s", out.String())
		}
		if !strings.Contains(errw.String(), "merged=1") || !strings.Contains(errw.String(), "parking duplicates list") {
			t.Errorf("the start does not log the merge and the command:\n%s", errw.String())
		}
		// Listing again (a second start) rewrites nothing and lists the same.
		var again bytes.Buffer
		if code := app.Run(ctx, []string{"duplicates", "list"}, func(k string) string { return env[k] }, &again, &errw); code != 0 || again.String() != out.String() {
			t.Errorf("second listing: exit %d\n%s\nwant\n%s", code, again.String(), out.String())
		}
		if code := app.Run(ctx, []string{"duplicates"}, func(k string) string { return env[k] }, &again, &errw); code == 0 {
			t.Error("duplicates without a subcommand succeeded")
		}
	})
}
