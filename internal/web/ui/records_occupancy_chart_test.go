package ui_test

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// The dashboard and the parking board draw today and the next 14 days as an SVG bar
// chart with its title and description, the full days marked; the board's capacity
// is the facility setting, changed without a restart.
func TestOccupancyChartAndBoardCapacity(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg := apptest.Config(t, d)
		cfg.Capacity = 2
		e := webtest.AdminEnvWith(t, cfg)
		// Two stays on base +2 and +3: those days are full; one on +3 and +4.
		e.WalkIn(webtest.WalkInFields(1, clocktest.Day(2, 9, 0), 1, ""))
		e.WalkIn(webtest.WalkInFields(2, clocktest.Day(2, 10, 0), 1, ""))
		for _, page := range []string{"/admin/dashboard", "/admin/parking"} {
			html := getPage(t, e, page)
			svg := regexp.MustCompile(`(?s)<svg[^>]*role="img"[^>]*aria-labelledby="occupancy-title occupancy-desc".*?</svg>`).FindString(html)
			if svg == "" {
				t.Fatalf("%s: no accessible occupancy chart in\n%s", page, html)
			}
			if n := strings.Count(svg, "<rect"); n != 15 {
				t.Errorf("%s: %d bars, want 15 (today and the next 14 days)", page, n)
			}
			if n := strings.Count(svg, "data-full"); n != 2 {
				t.Errorf("%s: %d full days marked, want 2", page, n)
			}
			want := "Días completos: " + clocktest.ES("22/11/2026") + " y " + clocktest.ES("23/11/2026")
			if !strings.Contains(svg, "<desc id=\"occupancy-desc\">"+want) {
				t.Errorf("%s: description does not name the full days (%q) in\n%s", page, want, svg)
			}
		}
		// The board reads the capacity from the settings.
		f, _ := e.A.CatalogOps.Facility(context.Background())
		f.Capacity = 7
		if _, err := e.A.CatalogOps.SaveFacility(context.Background(), f); err != nil {
			t.Fatal(err)
		}
		if status, body := e.JSON("GET", "/admin/parking", nil); status != 200 || body["capacity"] != 7.0 || body["free"] != 7.0 {
			t.Fatalf("board after the settings changed: %d %v", status, body)
		}
	})
}

func getPage(t *testing.T, e *webtest.AdminEnv, path string) string {
	t.Helper()
	req, _ := http.NewRequest("GET", e.A.URL+path, nil)
	req.Header.Set("Accept", "text/html")
	resp, err := e.C.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", path, resp.StatusCode)
	}
	return string(b)
}
