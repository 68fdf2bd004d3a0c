package ui_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// The privacy policy and the terms name the facility's identity from its settings
// (docs/settings.md), and every page links to both.
func TestLegalPages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		f, err := a.CatalogOps.Facility(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		f.Name, f.TaxID, f.Address, f.Email = "Aparcamientos Barajas S.L.", "B12345674", "Calle de la Terminal 4, 28042 Madrid", "privacidad@parking.example"
		f.PhotoRetentionDays = 200
		if _, err := a.CatalogOps.SaveFacility(context.Background(), f); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ path, title string }{{"/privacidad", "Política de privacidad"}, {"/condiciones", "Condiciones del servicio"}} {
			res := webtest.Do(t, apptest.Client(t), "GET", a.URL+c.path, nil)
			webtest.WantStatus(t, res, http.StatusOK)
			webtest.WantAll(t, c.path, res.Body, c.title, "Aparcamientos Barajas S.L.", "B12345674", "Calle de la Terminal 4, 28042 Madrid",
				"privacidad@parking.example")
		}
		res := webtest.Do(t, apptest.Client(t), "GET", a.URL+"/privacidad", nil)
		webtest.WantAll(t, "privacy policy", res.Body, "RGPD", "LOPDGDD", "www.aepd.es", "200 días", "descargar todos sus", "eliminar su cuenta")
		home := webtest.Do(t, apptest.Client(t), "GET", a.URL+"/", nil)
		if !strings.Contains(home.Body, `href="/privacidad"`) || !strings.Contains(home.Body, `href="/condiciones"`) {
			t.Error("the layout does not link the privacy policy and the terms")
		}
	})
}
