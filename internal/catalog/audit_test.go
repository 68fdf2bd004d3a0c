package catalog_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"parking/internal/audit"
	"parking/internal/audit/audittest"
	"parking/internal/catalog"
	"parking/internal/input"
	"parking/internal/money"
	"parking/internal/records"
	"parking/internal/store"
	"parking/internal/storetest"
)

var madrid, _ = time.LoadLocation("Europe/Madrid")

func ptr[T any](v T) *T { return &v }

// services is the catalog with the trail's reads beside it, on one store.
type services struct {
	catalog *catalog.Service
	records *records.Service
}

func newService(t *testing.T, d store.Dialect) (*services, *store.Store) {
	t.Helper()
	st, h := storetest.OpenCatalog(t, d)
	return &services{catalog: catalog.New(st, h, slog.New(slog.NewTextHandler(io.Discard, nil))),
		records: records.New(st, h, madrid, input.Rules{})}, st
}

// TestAuditCatalog: each catalog change writes one entry with the item's fields.
func TestAuditCatalog(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, _ := newService(t, d)
		ctx := audit.WithActor(context.Background(), audittest.Staff)
		last := func(entity, id, action string) audit.Record {
			t.Helper()
			page, err := svc.records.AuditTrail(ctx, records.AuditQuery{})
			if err != nil {
				t.Fatal(err)
			}
			e := page.Entries[0]
			if e.Entity != entity || e.EntityID != id || e.Action != action || e.Actor != audittest.Staff || e.ReservationID != 0 {
				t.Fatalf("newest entry = %+v, want %s %s %s", e, action, entity, id)
			}
			return e
		}
		count := func() int {
			page, err := svc.records.AuditTrail(ctx, records.AuditQuery{})
			if err != nil {
				t.Fatal(err)
			}
			return page.Total
		}
		m, err := svc.catalog.CreateMainService(ctx, catalog.MainServiceInput{Name: ptr("Valet")})
		if err != nil {
			t.Fatal(err)
		}
		mid := fmt.Sprint(m.ID)
		audittest.WantChanges(t, last(audit.EntityMainService, mid, audit.ActionCreate), map[string][2]string{"name": {"", "Valet"}, "active": {"", "sí"}})
		if _, err := svc.catalog.UpdateMainService(ctx, m.ID, catalog.MainServiceInput{Active: ptr(false)}); err != nil {
			t.Fatal(err)
		}
		audittest.WantChanges(t, last(audit.EntityMainService, mid, audit.ActionUpdate), map[string][2]string{"active": {"sí", "no"}})

		r, err := svc.catalog.CreateRate(ctx, catalog.RateInput{MainService: &m.ID, MinDays: ptr(int64(1)), MaxDays: ptr(int64(5)), DailyPrice: ptr(money.Cents(1250))})
		if err != nil {
			t.Fatal(err)
		}
		rid := fmt.Sprint(r.ID)
		audittest.WantChanges(t, last(audit.EntityRate, rid, audit.ActionCreate), map[string][2]string{
			"id_main_service": {"", mid}, "min_days": {"", "1"}, "max_days": {"", "5"}, "daily_price": {"", "12.50"}})
		if _, err := svc.catalog.UpdateRate(ctx, r.ID, catalog.RateInput{DailyPrice: ptr(money.Cents(1300))}); err != nil {
			t.Fatal(err)
		}
		audittest.WantChanges(t, last(audit.EntityRate, rid, audit.ActionUpdate), map[string][2]string{"daily_price": {"12.50", "13.00"}})
		if err := svc.catalog.DeleteRate(ctx, r.ID); err != nil {
			t.Fatal(err)
		}
		audittest.WantChanges(t, last(audit.EntityRate, rid, audit.ActionDelete), map[string][2]string{
			"id_main_service": {mid, ""}, "min_days": {"1", ""}, "max_days": {"5", ""}, "daily_price": {"13.00", ""}})

		mult, _ := money.ParseMultiplier("1.5")
		if _, err := svc.catalog.CreateCoefficient(ctx, "remolque", mult); err != nil {
			t.Fatal(err)
		}
		audittest.WantChanges(t, last(audit.EntityVehicleType, "REMOLQUE", audit.ActionCreate), map[string][2]string{"coefficient": {"", mult.String()}})
		mult2, _ := money.ParseMultiplier("1.75")
		if _, err := svc.catalog.UpdateCoefficient(ctx, "remolque", mult2); err != nil {
			t.Fatal(err)
		}
		audittest.WantChanges(t, last(audit.EntityVehicleType, "REMOLQUE", audit.ActionUpdate), map[string][2]string{"coefficient": {mult.String(), mult2.String()}})

		x, err := svc.catalog.CreateExtra(ctx, catalog.ExtraInput{Name: ptr("Carga"), Price: ptr(money.Cents(900))})
		if err != nil {
			t.Fatal(err)
		}
		xid := fmt.Sprint(x.ID)
		audittest.WantChanges(t, last(audit.EntityExtra, xid, audit.ActionCreate), map[string][2]string{"name": {"", "Carga"}, "price": {"", "9.00"}, "active": {"", "sí"}})
		if _, err := svc.catalog.UpdateExtra(ctx, x.ID, catalog.ExtraInput{Name: ptr("Carga rápida")}); err != nil {
			t.Fatal(err)
		}
		audittest.WantChanges(t, last(audit.EntityExtra, xid, audit.ActionUpdate), map[string][2]string{"name": {"Carga", "Carga rápida"}})
		// A change to the same values records nothing.
		n := count()
		if _, err := svc.catalog.UpdateExtra(ctx, x.ID, catalog.ExtraInput{Name: ptr("Carga rápida")}); err != nil {
			t.Fatal(err)
		}
		if count() != n {
			t.Fatal("an update that changed nothing was recorded")
		}
	})
}

// TestAuditSettings: saving the facility settings records the changed fields once;
// saving the same values records nothing.
func TestAuditSettings(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		svc, _ := newService(t, d)
		ctx := audit.WithActor(context.Background(), audittest.Staff)
		f, err := svc.catalog.Facility(ctx)
		if err != nil {
			t.Fatal(err)
		}
		f.Capacity, f.Name = 120, "Parking Aeropuerto"
		if _, err := svc.catalog.SaveFacility(ctx, f); err != nil {
			t.Fatal(err)
		}
		page, err := svc.records.AuditTrail(ctx, records.AuditQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 1 {
			t.Fatalf("trail has %d entries, want 1", page.Total)
		}
		e := page.Entries[0]
		if e.Action != audit.ActionSettings || e.Entity != audit.EntitySettings || e.Actor != audittest.Staff {
			t.Fatalf("entry = %+v", e)
		}
		c := audittest.Changes(e)
		if c["capacity"][1] != "120" || c["name"] != [2]string{"", "Parking Aeropuerto"} || len(c) != 2 {
			t.Errorf("settings changes = %v", c)
		}
		if _, err := svc.catalog.SaveFacility(ctx, f); err != nil {
			t.Fatal(err)
		}
		if page, _ := svc.records.AuditTrail(ctx, records.AuditQuery{}); page.Total != 1 {
			t.Errorf("saving the same settings was recorded: %d entries", page.Total)
		}
	})
}
