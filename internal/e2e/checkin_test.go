package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"parking/internal/apptest"
	"parking/internal/media/mediatest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/webtest"
)

// Check-in in one dialog on a phone (docs/reservations.md#check-in-on-a-phone): a
// walk-in with no spot and no photos; "Iniciar" opens the dialog at once, which
// passes the axe check, suggests the free spot (not the held one), takes the five
// photos from the camera input, the kilometres and the keys, and starts the stay.
func TestCheckInDialogOnPhone(t *testing.T) {
	e := webtest.AdminEnvWith(t, apptest.Config(t, store.SQLite))
	entry := time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid)
	e.WalkIn(webtest.WalkInFields(1, entry, 3, "A-1"))                   // A-1 held over the stay
	e.WalkIn(webtest.WalkInFields(2, entry.AddDate(0, 0, 20), 2, "B-7")) // B-7 free then
	id := e.WalkIn(webtest.WalkInFields(3, entry, 2, ""))
	dir := t.TempDir()
	var files []string
	for i := 0; i < 5; i++ {
		p := filepath.Join(dir, fmt.Sprintf("IMG_%04d.jpg", i+1))
		if err := os.WriteFile(p, mediatest.JPEG(t, 640, 480, 1, false), 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}

	ctx, console := phone(t)
	workerLogin(t, ctx, e.A, "admin@example.com", "admin-password")
	// The phone's camera reads the booking's QR code, which holds /r/{reference}: a
	// staff session lands on the detail page.
	scanned := e.A.URL + "/r/" + reservation.ShowReference(e.Stored(id).Reference)
	Do(t, ctx, "open the scanned QR code's address", chromedp.Navigate(scanned),
		chromedp.WaitVisible(chromedp.CSS("[data-detail]")))
	if got := pageJS[string](t, ctx, `location.pathname`); got != fmt.Sprintf("/admin/reservations/details/%d", id) {
		t.Fatalf("the QR code's address led to %s, want the detail page of %d", got, id)
	}
	waitStatus(t, ctx, "PENDIENTE")
	pageWaitJS(t, ctx, "start enabled without spot or photos", `!document.querySelector('[data-action="start"]').disabled`)
	pageClick(t, ctx, `[data-action="start"]`)
	pageWaitJS(t, ctx, "the start dialog", `document.querySelector('dialog[data-dialog="start"]').open`)
	if !pageJS[bool](t, ctx, `(function(){var i=document.querySelector('#start-photos');return i.type==='file'&&i.multiple&&i.accept==='image/*'&&i.getAttribute('capture')==='environment';})()`) {
		t.Error(`the dialog's photos must be <input type=file accept="image/*" capture="environment" multiple>`)
	}
	picks := pageJS[string](t, ctx, `Array.from(document.querySelectorAll('[data-spot-pick]')).map(b => b.getAttribute('data-spot-pick')).join(',')`)
	if !strings.Contains(picks, "B-7") || strings.Contains(picks, "A-1") {
		t.Errorf("suggested spots %q: want B-7, never the held A-1", picks)
	}
	for _, v := range Axe(t, ctx, AxeSource(t)) {
		t.Errorf("axe, the start dialog: %s", v)
	}
	noWiderThan(t, ctx, "the start dialog", Phone[0])

	pageClick(t, ctx, `[data-spot-pick="B-7"]`)
	pageWaitJS(t, ctx, "the spot picked", `document.querySelector('#start-spot').value === 'B-7'`)
	Do(t, ctx, "take five photos", chromedp.SetUploadFiles(chromedp.CSS("#start-photos"), files))
	pageSet(t, ctx, "#start-km", "45678")
	pageClick(t, ctx, "#start-keys")
	Screenshot(t, ctx, "phone-checkin-dialog")
	pageClick(t, ctx, `dialog[data-dialog="start"] [data-dialog-confirm]`)
	waitStatus(t, ctx, "EN CURSO")

	r := e.Stored(id)
	if r.Spot == nil || *r.Spot != "B-7" || !r.KeysHandedOver || r.Status != "EN CURSO" {
		t.Errorf("stored after the dialog: %+v", r)
	}
	if n := webtest.CountRows(t, e.A, "SELECT COUNT(*) FROM photo_evidence WHERE id_reservation = $1 AND phase = 'entrada'", id); n != 5 {
		t.Errorf("%d entry photos stored, want 5", n)
	}
	Screenshot(t, ctx, "phone-checkin-started")
	noConsoleErrors(t, console())
}
