package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parking/internal/apptest"
	"parking/internal/store"
	"parking/internal/webtest"
)

// The day's dashboard on the counter's 1366×768 screen: with long names, two
// extras-heavy services and public bookings that gave no brand or colour, neither
// the page nor its tables scroll sideways, and the unknown vehicle shows as "—"
// rather than the spec's placeholders ("Desconocida · No color").
func TestDashboardFits1366(t *testing.T) {
	e := webtest.AdminEnvWith(t, apptest.Config(t, store.SQLite))
	a := e.A
	for i, name := range []string{
		"María de los Ángeles Fernández-Villaverde Castellanos", "Jean-Baptiste Montgomery-Wellington", "Lucía Peñalver",
	} {
		postJSON(t, a.URL+"/api/reservations/public-new", map[string]any{
			"full_name": name, "phone": fmt.Sprintf("61122233%d", i), "email": fmt.Sprintf("c%d@example.com", i),
			"license_plate": fmt.Sprintf("%04dKLM", 4321+i), "vehicle_type": "COCHE",
			"entry_date": localInput(a, 1, 9+i), "exit_date": localInput(a, 4, 9), "id_main_service": 1 + i%2, "additional_services": []int{},
		}, http.StatusCreated)
	}
	e.WalkIn(map[string]any{
		"full_name": "Carlos Ruiz", "phone": "622000111", "license_plate": "9999XYZ", "brand": "Volkswagen", "model": "Golf",
		"color": "Gris oscuro metalizado", "vehicle_type": "COCHE", "id_main_service": 1,
		"entry_date": localInput(a, 1, 12), "exit_date": localInput(a, 2, 12),
	})

	ctx := Browser(t, [2]int64{1366, 768})
	console := watchConsole(ctx)
	workerLogin(t, ctx, a, "admin@example.com", "admin-password")
	Do(t, ctx, "tomorrow's dashboard", chromedp.Navigate(a.URL+"/admin/dashboard?date="+localInput(a, 1, 9)[:10]))
	pageWaitJS(t, ctx, "the entries listed", `document.querySelectorAll('[data-list="entries"] tr:not(.empty)').length === 4`)
	Screenshot(t, ctx, "dashboard-1366")
	if w := pageJS[[]int](t, ctx, `[document.documentElement.scrollWidth, document.documentElement.clientWidth]`); w[0] > w[1] {
		t.Errorf("the page is %d px wide in a %d px window", w[0], w[1])
	}
	if wide := pageJS[[]string](t, ctx, `Array.from(document.querySelectorAll('.table-wrap')).filter(e => e.scrollWidth > e.clientWidth).map(e => e.scrollWidth + ' > ' + e.clientWidth)`); len(wide) > 0 {
		t.Errorf("tables scroll sideways at 1366 px: %v", wide)
	}
	cells := pageJS[[]string](t, ctx, `Array.from(document.querySelectorAll('[data-list="entries"] td[data-label="Vehículo"]')).map(td => td.textContent)`)
	if len(cells) != 4 {
		t.Fatalf("vehicle cells: %q", cells)
	}
	dashes := 0
	for _, c := range cells {
		if strings.Contains(c, "Desconocid") || strings.Contains(c, "No color") {
			t.Errorf("vehicle cell %q shows the placeholders", c)
		}
		if c == "—" {
			dashes++
		}
	}
	if dashes != 3 || !strings.Contains(strings.Join(cells, "|"), "Volkswagen · Gris oscuro metalizado") {
		t.Errorf("vehicle cells = %q, want three dashes and Volkswagen · Gris oscuro metalizado", cells)
	}
	noConsoleErrors(t, console())
}
