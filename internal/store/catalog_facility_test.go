package store_test

import (
	"context"
	"testing"

	"parking/internal/settings"
	"parking/internal/store"
	"parking/internal/storetest"
)

// The settings row is seeded once, read back as written, replaced by a save that
// reports what was there, and refuses impossible values at the database too.
func TestFacilitySettings(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		ctx := context.Background()
		if f, err := st.Catalog().Facility(ctx); err != nil || f != settings.Defaults(0) {
			t.Fatalf("before seeding: got %+v, %v; want the defaults", f, err)
		}
		if ok, err := st.Catalog().SeedFacility(ctx, settings.Defaults(40)); err != nil || !ok {
			t.Fatalf("first seed: got %v, %v; want true", ok, err)
		}
		if ok, err := st.Catalog().SeedFacility(ctx, settings.Defaults(99)); err != nil || ok {
			t.Fatalf("second seed: got %v, %v; want false (seeded once)", ok, err)
		}
		want := settings.Facility{Capacity: 120, Sellable: 110, Name: "Parking Aeropuerto Sur", TaxID: "B12345678",
			Address: "Calle Mayor 1, 28001 Madrid", Phone: "+34 910 000 000", Email: "info@parking.example",
			VATBasisPoints: 1000, PhotoRetentionDays: 90}
		var before settings.Facility
		err := st.InTx(ctx, func(tx *store.Tx) (err error) {
			before, err = tx.Catalog().SaveFacility(ctx, want)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if before.Capacity != 40 {
			t.Errorf("before: capacity %d, want 40 (the seed)", before.Capacity)
		}
		if got, err := st.Catalog().Facility(ctx); err != nil || got != want {
			t.Errorf("read back: got %+v, %v; want %+v", got, err, want)
		}
		bad := want
		bad.Capacity = -5
		err = st.InTx(ctx, func(tx *store.Tx) error { _, err := tx.Catalog().SaveFacility(ctx, bad); return err })
		if err == nil {
			t.Error("a negative capacity was stored; want the CHECK constraint to refuse it")
		}
		if got, _ := st.Catalog().Facility(ctx); got != want {
			t.Errorf("after the refused save: got %+v, want %+v unchanged", got, want)
		}
	})
}
