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
	"parking/internal/store"
	"parking/internal/webtest"
)

// At the counter with a phone (docs/photos.md): the clerk opens a reservation's
// detail page, takes the five photos with "Hacer fotos" (here: five files of the
// three accepted formats, one of them a sideways phone JPEG with GPS data, set on
// the real file input), sees them upload at once with the progress bar and the
// count reach 5 de 5, sees the thumbnails served back, and starts the reservation
// recording the mileage, the fuel level and a damage note, which the page then
// shows. Nothing scrolls sideways and the console stays clean.
func TestPhotosFromThePhone(t *testing.T) {
	e := webtest.AdminEnvWith(t, apptest.Config(t, store.SQLite))
	entry := time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid)
	id := e.WalkIn(webtest.WalkInFields(1, entry, 3, "A-1"))
	dir := t.TempDir()
	var files []string
	for i, b := range [][]byte{
		mediatest.JPEG(t, 1200, 800, 6, true), mediatest.JPEG(t, 800, 600, 1, false), mediatest.PNG(t, 640, 480),
		mediatest.WebP(), mediatest.JPEG(t, 640, 480, 3, false),
	} {
		p := filepath.Join(dir, fmt.Sprintf("IMG_%04d.jpg", i+1))
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}

	ctx, console := phone(t)
	workerLogin(t, ctx, e.A, "admin@example.com", "admin-password")
	detail := fmt.Sprintf("%s/admin/reservations/details/%d", e.A.URL, id)
	Do(t, ctx, "open the detail page", chromedp.Navigate(detail), chromedp.WaitVisible(chromedp.CSS("[data-photo-upload]")))
	if got := pageText(t, ctx, "[data-photo-count]"); got != "0 de 5" {
		t.Errorf("count before = %q", got)
	}
	if !pageJS[bool](t, ctx, `(function(){var i=document.querySelector('#photo-files');return i.type==='file'&&i.multiple&&i.accept==='image/*'&&i.getAttribute('capture')==='environment';})()`) {
		t.Error(`"Hacer fotos" must be <input type=file accept="image/*" capture="environment" multiple>`)
	}
	if got := pageText(t, ctx, `label[for="photo-files"]`); got != "Hacer fotos" {
		t.Errorf("camera button = %q", got)
	}
	noWiderThan(t, ctx, "the detail page", Phone[0])
	Screenshot(t, ctx, "phone-photos-before")

	// Choosing the photos uploads them at once.
	Do(t, ctx, "choose five photos", chromedp.SetUploadFiles(chromedp.CSS("#photo-files"), files))
	pageWaitJS(t, ctx, "five photos counted", `document.querySelector('[data-photo-count]').getAttribute('data-photo-count') === '5'`)
	if got := pageText(t, ctx, "[data-photo-count]"); got != "5 de 5" {
		t.Errorf("count after = %q", got)
	}
	pageWaitJS(t, ctx, "the upload's message", pageVisible("[data-upload-msg]")+` && document.querySelector('[data-upload-msg]').textContent.includes('subidas')`)
	if got := pageText(t, ctx, "[data-upload-msg]"); !strings.Contains(got, "5 fotos subidas") || !strings.Contains(got, "5 de 5") {
		t.Errorf("upload message = %q", got)
	}
	// The thumbnails load lazily: bring the gallery into view as the clerk would.
	Do(t, ctx, "scroll to the gallery", chromedp.ScrollIntoView(chromedp.CSS("[data-gallery]")))
	pageWaitJS(t, ctx, "the five thumbnails served", `Array.from(document.querySelectorAll('[data-gallery] img')).filter(i => i.complete && i.naturalWidth > 0).length === 5`)
	// The sideways phone photo is shown upright: 1200×800 with orientation 6 → portrait.
	if !pageJS[bool](t, ctx, `(function(){var i=document.querySelector('[data-gallery] img');return i.naturalHeight>i.naturalWidth;})()`) {
		t.Error("the first photo (EXIF orientation 6) is not shown upright")
	}
	if n := webtest.CountRows(t, e.A, "SELECT COUNT(*) FROM photo_evidence WHERE id_reservation = $1 AND phase = 'entrada' AND storage_key IS NOT NULL", id); n != 5 {
		t.Errorf("%d stored entry photos, want 5", n)
	}
	pageWaitJS(t, ctx, "start enabled", `!document.querySelector('[data-action="start"]').disabled`)
	Screenshot(t, ctx, "phone-photos-after")

	// Start, with the hand-over.
	pageClick(t, ctx, `[data-action="start"]`)
	pageWaitJS(t, ctx, "the start dialog", `document.querySelector('dialog[data-dialog="start"]').open`)
	pageSet(t, ctx, "#start-km", "123456")
	pageSet(t, ctx, "#start-fuel", "75")
	pageSet(t, ctx, "#start-damage", "Rayón en la puerta trasera izquierda")
	Screenshot(t, ctx, "phone-start-dialog")
	pageClick(t, ctx, `dialog[data-dialog="start"] [data-dialog-confirm]`)
	waitStatus(t, ctx, "EN CURSO")
	pageWaitJS(t, ctx, "the hand-over shown", pageVisible("[data-handover]"))
	for sel, want := range map[string]string{"[data-handover-km]": "123.456 km", "[data-handover-fuel]": "75 %", "[data-handover-damage]": "Rayón en la puerta trasera izquierda"} {
		if got := pageText(t, ctx, sel); got != want {
			t.Errorf("%s = %q, want %q", sel, got, want)
		}
	}
	if got := storedStatus(t, e.A, fmt.Sprint(id)); got != "EN CURSO" {
		t.Errorf("stored status = %q", got)
	}
	noWiderThan(t, ctx, "the started detail page", Phone[0])
	Screenshot(t, ctx, "phone-started")
	noConsoleErrors(t, console())
}

// On a desktop, photos dropped on the upload box upload like chosen ones, in one
// request, with the count following (docs/photos.md); an exit photo dropped with
// Momento = Salida does not count toward the five.
func TestPhotosDroppedOnDesktop(t *testing.T) {
	e := webtest.AdminEnvWith(t, apptest.Config(t, store.SQLite))
	id := e.WalkIn(webtest.WalkInFields(1, time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid), 3, "A-1"))
	ctx, console := desktop(t)
	workerLogin(t, ctx, e.A, "admin@example.com", "admin-password")
	Do(t, ctx, "open the detail page", chromedp.Navigate(fmt.Sprintf("%s/admin/reservations/details/%d", e.A.URL, id)),
		chromedp.WaitVisible(chromedp.CSS("[data-dropzone]")))
	// Drop n pictures drawn on a canvas, as the browser hands files dragged from the desktop.
	drop := func(n int) {
		pageJS[bool](t, ctx, fmt.Sprintf(`(function(){
			var dt = new DataTransfer(), left = %d;
			function draw(i) {
				var c = document.createElement('canvas'); c.width = 320; c.height = 240;
				var g = c.getContext('2d'); g.fillStyle = ['#b53a2f','#2f6fb5','#3a8f55'][i %% 3]; g.fillRect(0, 0, 320, 240);
				return new Promise(function (ok) { c.toBlob(function (b) { ok(new File([b], 'coche-' + i + '.png', {type: 'image/png'})); }, 'image/png'); });
			}
			var all = []; for (var i = 0; i < left; i++) { all.push(draw(i)); }
			Promise.all(all).then(function (files) {
				files.forEach(function (f) { dt.items.add(f); });
				var zone = document.querySelector('[data-dropzone]');
				zone.dispatchEvent(new DragEvent('dragover', {bubbles: true, cancelable: true, dataTransfer: dt}));
				zone.dispatchEvent(new DragEvent('drop', {bubbles: true, cancelable: true, dataTransfer: dt}));
			});
			return true;
		})()`, n))
	}
	drop(3)
	pageWaitJS(t, ctx, "three photos counted", `document.querySelector('[data-photo-count]').getAttribute('data-photo-count') === '3'`)
	pageWaitJS(t, ctx, "three thumbnails", `document.querySelectorAll('[data-gallery] img').length === 3`)
	pageSet(t, ctx, "#photo-phase", "salida")
	drop(1)
	pageWaitJS(t, ctx, "the exit photo listed", `document.querySelectorAll('[data-gallery] img').length === 4`)
	if got := pageText(t, ctx, "[data-photo-count]"); got != "3 de 5" {
		t.Errorf("count after an exit photo = %q, want 3 de 5", got)
	}
	if n := webtest.CountRows(t, e.A, "SELECT COUNT(*) FROM photo_evidence WHERE id_reservation = $1 AND phase = 'salida'", id); n != 1 {
		t.Errorf("%d exit photos stored, want 1", n)
	}
	Screenshot(t, ctx, "desktop-dropped")
	noConsoleErrors(t, console())
}
