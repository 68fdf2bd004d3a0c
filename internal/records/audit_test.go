package records_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"parking/internal/audit"
	"parking/internal/audit/audittest"
	"parking/internal/booking"
	"parking/internal/clock/clocktest"
	"parking/internal/handover"
	"parking/internal/input"
	"parking/internal/records"
	"parking/internal/store"
	"parking/internal/storetest"
)

var madrid, _ = time.LoadLocation("Europe/Madrid")

func ptr[T any](v T) *T { return &v }

// services is the staff's reads with the operations that write what they read, on
// one store.
type services struct {
	*booking.Service
	records  *records.Service
	handover *handover.Service
}

func newService(t *testing.T, d store.Dialect) (*services, *store.Store) {
	t.Helper()
	st, h := storetest.OpenCatalog(t, d)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	return &services{Service: booking.New(st, h, madrid, log),
		records: records.New(st, h, madrid, input.Rules{}), handover: handover.New(st, log)}, st
}

func validBooking() booking.NewBooking {
	entry := clocktest.Day(11, 10, 0) // 2026-12-01 on the default base
	return booking.NewBooking{
		FullName: "Ana Pérez", Phone: " 600111222 ", Email: "ana@example.com",
		LicensePlate: " 1234abc ", VehicleType: "suv",
		Entry: entry, Exit: ptr(entry.Add(4*24*time.Hour + 3*time.Hour)),
		MainService: 1, Extras: []int64{1, 1, 99},
	}
}

// TestAuditTrailFilters: person (id, part of name or email), reservation, days and
// pages.
func TestAuditTrailFilters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, _ := newService(t, d)
		ctx := context.Background()
		staff := audit.WithActor(ctx, audittest.Staff)
		a, err := svc.Create(ctx, booking.Public, validBooking())
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			if _, _, err := svc.handover.AddPhoto(staff, a.Reservation.ID, fmt.Sprintf("https://f.example.com/%d.jpg", i), ""); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			q    records.AuditQuery
			want int
		}{
			{records.AuditQuery{}, 4},
			{records.AuditQuery{Person: "77"}, 3},
			{records.AuditQuery{Person: "MARTA"}, 3},
			{records.AuditQuery{Person: "parking.test"}, 3},
			{records.AuditQuery{Person: "público"}, 1},
			{records.AuditQuery{Person: "nadie_%"}, 0},
			{records.AuditQuery{Reservation: fmt.Sprint(a.Reservation.ID)}, 4},
			{records.AuditQuery{Reservation: fmt.Sprint(a.Reservation.ID + 1)}, 0},
			{records.AuditQuery{From: "2000-01-01", To: "2100-01-01"}, 4},
			{records.AuditQuery{To: "2000-01-01"}, 0},
		} {
			page, err := svc.records.AuditTrail(ctx, c.q)
			if err != nil {
				t.Fatalf("%+v: %v", c.q, err)
			}
			if page.Total != c.want || len(page.Entries) != c.want {
				t.Errorf("%+v: %d entries (%d listed), want %d", c.q, page.Total, len(page.Entries), c.want)
			}
		}
		if _, err := svc.records.AuditTrail(ctx, records.AuditQuery{Reservation: "x"}); err == nil {
			t.Error("reservation=x accepted")
		}
		if _, err := svc.records.AuditTrail(ctx, records.AuditQuery{From: "2026-13-01"}); err == nil {
			t.Error("from=2026-13-01 accepted")
		}
	})
}
