package account

import (
	"context"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"parking/internal/notify"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
)

// BenchmarkPasswordResetRequest compares a request for an account that gets a link
// with one for an email no account has: both do the same work (one transaction,
// the same reads and writes; docs/security.md#password-reset), so their times
// should match within noise. The clock moves an hour each time, so the account is
// never over its three links an hour.
//
//	go test -run '^$' -bench PasswordResetRequest -benchtime 2000x ./internal/account/
func BenchmarkPasswordResetRequest(b *testing.B) {
	dialects := []store.Dialect{store.SQLite}
	if os.Getenv(storetest.EnvPostgres) != "" {
		dialects = append(dialects, store.Postgres)
	}
	for _, d := range dialects {
		for _, c := range []struct{ name, email string }{{"known", "ana@example.com"}, {"unknown", "nadie@example.com"}} {
			b.Run(string(d)+"/"+c.name, func(b *testing.B) {
				// A fresh database each, with the one account: neither runs on the
				// other's rows.
				st, clk := storetest.OpenClock(b, d)
				s := New(st, slog.New(slog.NewTextHandler(io.Discard, nil)), WithHashCost(bcrypt.MinCost),
					WithPasswordReset(notify.NewOutbox(time.UTC, true), "https://parking.example"))
				ctx := context.Background()
				hash, err := HashPassword("password-1", bcrypt.MinCost)
				if err != nil {
					b.Fatal(err)
				}
				if err := st.InTx(ctx, func(tx *store.Tx) error {
					_, err := tx.Accounts().InsertAccount(ctx, store.NewAccount{FullName: "Ana", Email: "ana@example.com", Type: reservation.Registered, PasswordHash: hash})
					return err
				}); err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					clk.Advance(61 * time.Minute)
					if err := s.RequestPasswordReset(ctx, c.email); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
