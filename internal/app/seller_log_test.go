package app_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/settings"
	"parking/internal/store"
	"parking/internal/storetest"
)

// A receipt is never issued blind: the start log says which of the seller's name,
// tax id and address the facility settings lack, and says nothing once all three
// are set (docs/entry-document.md).
func TestStartLogNamesTheMissingSeller(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg := apptest.Config(t, d)
		open := func() (*app.App, string) {
			t.Helper()
			var buf bytes.Buffer
			a, err := app.Open(context.Background(), cfg, slog.New(slog.NewTextHandler(&buf, nil)))
			if err != nil {
				t.Fatal(err)
			}
			return a, buf.String()
		}
		a, log := open()
		if !strings.Contains(log, "level=WARN") || !strings.Contains(log, "seller's identity is incomplete") ||
			!strings.Contains(log, "missing=name,tax_id,address") || !strings.Contains(log, "/admin/settings") {
			t.Errorf("start log with blank settings:\n%s", log)
		}
		f, err := a.CatalogOps.Facility(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		f.Name, f.TaxID = "Parking Aeropuerto Barajas, S.L.", "B12345674"
		save := func(f settings.Facility) {
			t.Helper()
			if _, err := a.CatalogOps.SaveFacility(context.Background(), f); err != nil {
				t.Fatal(err)
			}
			a.Store.Close()
		}
		save(f)
		a, log = open()
		if !strings.Contains(log, "missing=address") || strings.Contains(log, "missing=name") {
			t.Errorf("start log without the address:\n%s", log)
		}
		f.Address = "Avenida de la Hispanidad 1, 28042 Madrid"
		save(f)
		a, log = open()
		defer a.Store.Close()
		if strings.Contains(log, "seller's identity") {
			t.Errorf("start log with the seller set still warns:\n%s", log)
		}
	})
}
