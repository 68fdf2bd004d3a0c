package app_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"parking/internal/app"
	"parking/internal/booking"
	"parking/internal/clock/clocktest"
	"parking/internal/notify"
	"parking/internal/pricing"
	"parking/internal/store"
	"parking/internal/storetest"
)

func TestNotificationsCommand(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		url := storetest.URL(t, d)
		ctx := context.Background()
		// The test clock, and an entry less than 24 hours ahead of it: each booking
		// has exactly its confirmation row (no booking_reminder, docs/manage-booking.md#the-reminder-the-day-before-booking_reminder).
		st, err := store.OpenWith(ctx, url, store.Options{Clock: clocktest.New().Now})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if err := st.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Catalog().SeedCatalog(ctx, pricing.Default()); err != nil {
			t.Fatal(err)
		}
		cat, _ := st.Catalog().LoadCatalog(ctx)
		h := &pricing.Holder{}
		h.Store(pricing.NewSnapshot(cat))
		madrid, _ := time.LoadLocation("Europe/Madrid")
		svc := booking.New(st, h, madrid, slog.New(slog.NewTextHandler(io.Discard, nil)), booking.WithOutbox(notify.NewOutbox(madrid, true)))
		entry := clocktest.Day(0, 20, 0)
		exit := entry.Add(48 * time.Hour)
		for i, email := range []string{"a@example.com", "b@example.com", ""} {
			_, err := svc.Create(ctx, booking.Public, booking.NewBooking{FullName: "Ana", Phone: "60000000" + string(rune('0'+i)),
				Email: email, LicensePlate: "CLI" + string(rune('0'+i)), VehicleType: "COCHE", Entry: entry, Exit: &exit, MainService: 1})
			if err != nil {
				t.Fatal(err)
			}
		}
		// Rows 1 and 2 failed (as a dispatcher records a refusal); row 3 is skipped (no email).
		if _, err := st.WriteDB().Exec(`UPDATE notification SET status = 'failed', attempts = 1, last_error = 'HTTP 400 Bad Request' WHERE id IN (1, 2)`); err != nil {
			t.Fatal(err)
		}

		run := func(args ...string) (int, string, string) {
			var out, errw bytes.Buffer
			env := map[string]string{"PARKING_DATABASE_URL": url}
			code := app.Run(ctx, append([]string{"notifications"}, args...), func(k string) string { return env[k] }, &out, &errw)
			return code, out.String(), errw.String()
		}

		code, out, _ := run("list", "--status", "failed")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], "ID") ||
			!strings.Contains(out, "booking_confirmation") || !strings.Contains(out, "HTTP 400 Bad Request") {
			t.Fatalf("list --status failed: code %d\n%s", code, out)
		}
		code, out, _ = run("retry", "1")
		if code != 0 || out != "notification 1 (booking_confirmation, reservation 1) queued again; attempts so far: 1\n" {
			t.Errorf("retry 1: code %d, %q", code, out)
		}
		code, out, _ = run("list", "--status", "pending")
		if code != 0 || !strings.Contains(out, "pending") || strings.Count(strings.TrimSpace(out), "\n") != 1 {
			t.Errorf("list --status pending after retry: code %d\n%s", code, out)
		}
		code, out, _ = run("retry", "--failed")
		if code != 0 || out != "1 failed notification(s) queued again\n" {
			t.Errorf("retry --failed: code %d, %q", code, out)
		}
		for _, c := range []struct {
			args []string
			err  string
		}{
			{[]string{"retry", "3"}, "no email"},
			{[]string{"retry", "1"}, "is pending"},
			{[]string{"retry", "99"}, "notification 99 does not exist"},
			{[]string{"retry", "abc"}, "want a positive whole number"},
			{[]string{"retry"}, "usage"},
			{[]string{"list", "--status", "lost"}, `--status "lost"`},
			{[]string{"resend"}, "unknown subcommand"},
			{nil, "usage"},
		} {
			code, _, errOut := run(c.args...)
			if code != 1 || !strings.Contains(errOut, c.err) {
				t.Errorf("%v: code %d, stderr %q; want 1 mentioning %q", c.args, code, errOut, c.err)
			}
		}
	})
}
