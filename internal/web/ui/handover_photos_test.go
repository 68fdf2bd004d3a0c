package ui_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/fault"
	"parking/internal/handover"
	"parking/internal/media/mediatest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

var photoEntry = time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid)

// photoPath is a stored photo's address without the service's base URL (the
// tests' base URL has no port).
func photoPath(t *testing.T, e *webtest.AdminEnv, photo any) string {
	t.Helper()
	fp, _ := photo.(map[string]any)["file_path"].(string)
	p, ok := strings.CutPrefix(fp, e.A.Config.BaseURL)
	if !ok || !strings.HasPrefix(p, "/media/photos/") || !strings.HasSuffix(p, "/large") {
		t.Fatalf("file_path %q is not an address under %s/media/photos/", fp, e.A.Config.BaseURL)
	}
	return p
}

// docs/photos.md: a multipart upload of several files (JPEG, PNG, WebP, told from
// the bytes) → 201 with every photo and the entry-photo count; the photos are
// served upright and without metadata; exit photos do not count toward the five,
// so the start needs five entry photos; the URL form keeps the URL form's answer (docs/errors.md#operation-responses).
func TestUploadPhotos(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		id := e.WalkIn(webtest.WalkInFields(1, photoEntry, 3, "A-1"))
		jpg := mediatest.JPEG(t, 400, 200, 6, true)
		status, body := e.Upload(id, [][]byte{jpg, mediatest.PNG(t, 300, 200), mediatest.WebP()}, map[string]string{"description": "Frontal"})
		photos, _ := body["photos"].([]any)
		if status != 201 || body["success"] != true || len(photos) != 3 || body["photo_count"] != 3.0 {
			t.Fatalf("upload: %d %v", status, body)
		}
		for _, p := range photos {
			m := p.(map[string]any)
			if m["phase"] != "entrada" || m["description"] != "Frontal" || m["id_reservation"] != float64(id) {
				t.Errorf("photo %v", m)
			}
		}
		if n := e.MediaFiles(); n != 6 {
			t.Errorf("%d files stored, want 6 (reduced copy and thumbnail of each)", n)
		}

		// Served to staff: upright (200×400 from a 400×200 picture with
		// orientation 6), no EXIF, no GPS, private to the browser.
		path := photoPath(t, e, photos[0])
		r := webtest.Do(t, e.C, "GET", e.A.URL+path, nil)
		if r.StatusCode != 200 || r.Header.Get("Content-Type") != "image/jpeg" || !strings.HasPrefix(r.Header.Get("Cache-Control"), "private") {
			t.Fatalf("GET %s: %d %v", path, r.StatusCode, r.Header)
		}
		cfg, format, err := image.DecodeConfig(strings.NewReader(r.Body))
		if err != nil || format != "jpeg" || cfg.Width != 200 || cfg.Height != 400 {
			t.Errorf("served %s %d×%d (%v), want jpeg 200×400", format, cfg.Width, cfg.Height, err)
		}
		if strings.Contains(r.Body, "Exif") || strings.Contains(r.Body, mediatest.GPSMark) {
			t.Error("the served photo keeps its EXIF or GPS data")
		}
		thumb := webtest.Do(t, e.C, "GET", e.A.URL+strings.TrimSuffix(path, "large")+"thumb", nil)
		if tc, _, err := image.DecodeConfig(strings.NewReader(thumb.Body)); thumb.StatusCode != 200 || err != nil || tc.Height != 320 {
			t.Errorf("thumbnail: %d %v %d×%d", thumb.StatusCode, err, tc.Width, tc.Height)
		}

		// An exit photo does not count toward the five.
		status, body = e.Upload(id, [][]byte{mediatest.JPEG(t, 64, 48, 0, false)}, map[string]string{"phase": "salida"})
		photos, _ = body["photos"].([]any)
		if status != 201 || body["photo_count"] != 3.0 || len(photos) != 1 || photos[0].(map[string]any)["phase"] != "salida" {
			t.Fatalf("exit photo: %d %v", status, body)
		}
		// The URL form keeps the URL form's answer (docs/errors.md#operation-responses): one "photo", phase entrada.
		status, body = e.JSON("POST", fmt.Sprintf("/admin/reservations/%d/photos", id), map[string]any{"file_path": "https://fotos.example.com/x.jpg"})
		if p, _ := body["photo"].(map[string]any); status != 201 || body["photo_count"] != 4.0 || p["phase"] != "entrada" || p["file_path"] != "https://fotos.example.com/x.jpg" {
			t.Fatalf("URL photo: %d %v", status, body)
		}
		status, body = e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil)
		webtest.WantMessage(t, status, body, 400, fmt.Sprintf("No se puede iniciar la reserva %d: tiene 4 fotos y se necesitan al menos 5.", id))
		if status, body = e.Upload(id, [][]byte{mediatest.PNG(t, 40, 30)}, nil); status != 201 || body["photo_count"] != 5.0 {
			t.Fatalf("fifth photo: %d %v", status, body)
		}
		_, detail := e.JSON("GET", fmt.Sprintf("/admin/reservations/details/%d", id), nil)
		if all, _ := detail["photos"].([]any); detail["photo_count"] != 5.0 || len(all) != 6 {
			t.Errorf("detail: photo_count %v, %d photos; want 5 entry photos of 6", detail["photo_count"], len(all))
		}
		if status, body = e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil); status != 200 {
			t.Errorf("start with 5 entry photos: %d %v", status, body)
		}
	})
}

// docs/photos.md: a file over 15 MB, a file that is not a JPEG, PNG or WebP image
// (whatever its name says), or one bad file among good ones: 400 and nothing
// stored — no row, no file. Also: no file at all, a bad phase, an unknown or a
// closed reservation.
func TestUploadPhotosRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		id := e.WalkIn(webtest.WalkInFields(1, photoEntry, 3, "A-1"))
		good := mediatest.JPEG(t, 64, 48, 1, false)
		big := append(mediatest.JPEG(t, 64, 48, 0, false), bytes.Repeat([]byte{0}, 15<<20)...)
		p := fmt.Sprint(id)
		for _, c := range []struct {
			name   string
			files  [][]byte
			fields map[string]string
			status int
			msg    string
		}{
			{"too big", [][]byte{big}, nil, 400, "La foto 1 supera el máximo de 15 MB por archivo: no se ha guardado ninguna foto."},
			{"good then too big", [][]byte{good, big}, nil, 400, "La foto 2 supera el máximo de 15 MB por archivo: no se ha guardado ninguna foto."},
			{"not an image", [][]byte{[]byte("%PDF-1.7 una factura")}, nil, 400, "La foto no es una imagen JPEG, PNG o WebP: no se ha guardado ninguna foto."},
			{"svg", [][]byte{[]byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)}, nil, 400, "La foto no es una imagen JPEG, PNG o WebP: no se ha guardado ninguna foto."},
			{"good and bad", [][]byte{good, good, []byte("GIF89a")}, nil, 400, "La foto 3 de 3 no es una imagen JPEG, PNG o WebP: no se ha guardado ninguna foto."},
			{"truncated", [][]byte{good, good[:100]}, nil, 400, "La foto 2 de 2 no se puede leer: el archivo está dañado o incompleto. No se ha guardado ninguna foto."},
			{"no file", nil, map[string]string{"description": "x"}, 400, "No se ha recibido ninguna foto: envíe una o más partes «file» con las imágenes."},
			{"bad phase", [][]byte{good}, map[string]string{"phase": "durante"}, 400, "El campo phase debe ser entrada o salida."},
			{"long description", [][]byte{good}, map[string]string{"description": strings.Repeat("a", 256)}, 400, "El campo description admite como máximo 255 caracteres."},
		} {
			status, body := e.Upload(id, c.files, c.fields)
			if status != c.status || body["success"] != false || body["message"] != c.msg {
				t.Errorf("%s: %d %v\nwant %d %q", c.name, status, body, c.status, c.msg)
			}
		}
		if n := webtest.CountRows(t, e.A, "SELECT COUNT(*) FROM photo_evidence"); n != 0 {
			t.Errorf("%d photo rows after refused uploads", n)
		}
		if n := e.MediaFiles(); n != 0 {
			t.Errorf("%d files left after refused uploads", n)
		}
		status, body := e.Upload(999, [][]byte{good}, nil)
		webtest.WantMessage(t, status, body, 404, "La reserva 999 no existe.")
		if status, body := e.JSON("PATCH", "/admin/reservations/"+p+"/cancel", nil); status != 200 {
			t.Fatalf("cancel: %d %v", status, body)
		}
		status, body = e.Upload(id, [][]byte{good}, nil)
		webtest.WantMessage(t, status, body, 400, "No se pueden añadir fotos a la reserva "+p+": está CANCELADA.")
		// The transaction refusing after the files were put (the reservation closed
		// in between): the files are removed again.
		done, err := handover.ProcessPhotos(context.Background(), []io.ReadSeeker{bytes.NewReader(good), bytes.NewReader(good)})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.A.Handover.AddUploadedPhotos(context.Background(), id, done, "", ""); fault.KindOf(err) != fault.Invalid {
			t.Errorf("upload to a cancelled reservation: %v", err)
		}
		if n := e.MediaFiles(); n != 0 {
			t.Errorf("%d files left after a refused transaction", n)
		}
	})
}

// docs/photos.md: photos are personal data. The reservation's own customer sees
// them; another customer, someone not signed in, and a wrong size get the same
// 404 as a photo that does not exist. A photo given by URL is not served here.
func TestPhotoAccess(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		owner, u := apptest.Customer(t, e.A, "ana@example.com", "600000001")
		other, _ := apptest.Customer(t, e.A, "luis@example.com", "600000002")
		id := e.WalkIn(webtest.WalkInFields(1, photoEntry, 3, "A-1"))
		e.Exec(`UPDATE reservation SET id_customer = $2 WHERE id_reservation = $1`, id, u.ID)
		status, body := e.Upload(id, [][]byte{mediatest.JPEG(t, 64, 48, 0, false)}, nil)
		if status != 201 {
			t.Fatalf("upload: %d %v", status, body)
		}
		path := photoPath(t, e, body["photos"].([]any)[0])
		if r := webtest.Do(t, owner, "GET", e.A.URL+path, nil); r.StatusCode != 200 || r.Header.Get("Content-Type") != "image/jpeg" {
			t.Errorf("owner: %d", r.StatusCode)
		}
		// The owner finds them in the customer area: the profile's JSON and the
		// booking card's thumbnails, at the same addresses.
		_, prof := webtest.CustCall(t, owner, "GET", e.A.URL+"/users/profile", nil)
		var listed []any
		for _, list := range []string{"active_reservations", "past_reservations"} {
			items, _ := prof[list].([]any)
			for _, it := range items {
				if m := it.(map[string]any); m["id_reservation"] == float64(id) {
					listed, _ = m["photos"].([]any)
				}
			}
		}
		if len(listed) != 1 || listed[0].(map[string]any)["url"] != path || listed[0].(map[string]any)["phase"] != "entrada" {
			t.Errorf("profile photos of %d: %v, want the one at %s", id, listed, path)
		}
		page := webtest.Do(t, owner, "GET", e.A.URL+"/users/profile", nil, "Accept: text/html")
		webtest.WantAll(t, "profile page", page.Body, `data-res="photos"`, `href="`+path+`"`, `src="`+strings.TrimSuffix(path, "large")+`thumb"`)
		if _, body := webtest.CustCall(t, other, "GET", e.A.URL+"/users/profile", nil); strings.Contains(fmt.Sprint(body), path) {
			t.Error("another customer's profile lists the photo")
		}
		for name, c := range map[string]*http.Client{"other customer": other, "anonymous": apptest.Client(t)} {
			missing := webtest.Do(t, c, "GET", e.A.URL+"/media/photos/99999/large", nil, "Accept: text/html")
			if missing.StatusCode != 404 {
				t.Fatalf("missing photo: %d", missing.StatusCode)
			}
			r := webtest.Do(t, c, "GET", e.A.URL+path, nil, "Accept: text/html")
			if r.StatusCode != 404 || r.Body != missing.Body || r.Header.Get("Content-Type") == "image/jpeg" {
				t.Errorf("%s: %d, want the same 404 as a missing photo", name, r.StatusCode)
			}
		}
		if r := webtest.Do(t, e.C, "GET", e.A.URL+strings.TrimSuffix(path, "large")+"original", nil); r.StatusCode != 404 {
			t.Errorf("unknown size: %d", r.StatusCode)
		}
		e.AddPhotos(id, 1) // by URL
		var urlID int64
		if err := e.A.Store.WriteDB().QueryRow(`SELECT MAX(id_photo) FROM photo_evidence`).Scan(&urlID); err != nil {
			t.Fatal(err)
		}
		if r := webtest.Do(t, e.C, "GET", fmt.Sprintf("%s/media/photos/%d/large", e.A.URL, urlID), nil); r.StatusCode != 404 {
			t.Errorf("photo by URL served: %d", r.StatusCode)
		}
	})
}

// docs/photos.md: photos are deleted (files and rows) a retention period (365 days)
// after the stay ends, as of the service's clock, and all of a customer's photos
// at once when their data is erased (DeleteCustomerPhotos). A vehicle still in
// the car park keeps its photos.
func TestPhotoRetention(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg, clk := apptest.ConfigClock(t, d)
		e := webtest.AdminEnvWith(t, cfg)
		ctx := context.Background()
		old := e.WalkIn(webtest.WalkInFields(1, photoEntry, 3, "A-1"))
		later := e.WalkIn(webtest.WalkInFields(2, photoEntry.AddDate(0, 1, 0), 3, "A-2"))
		inside := e.WalkIn(webtest.WalkInFields(3, photoEntry, 3, "A-3"))
		recent := e.WalkIn(webtest.WalkInFields(4, photoEntry.AddDate(1, 0, 0), 3, "A-4"))
		pic := mediatest.JPEG(t, 64, 48, 0, false)
		for _, id := range []int64{old, later, inside, recent} {
			if status, body := e.Upload(id, [][]byte{pic, pic, pic, pic, pic}, nil); status != 201 {
				t.Fatalf("upload: %d %v", status, body)
			}
		}
		if status, body := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", inside), nil); status != 200 {
			t.Fatalf("start: %d %v", status, body)
		}
		exit := photoEntry.AddDate(0, 0, 3)
		rows := func(id int64) int {
			return webtest.CountRows(t, e.A, "SELECT COUNT(*) FROM photo_evidence WHERE id_reservation = $1", id)
		}
		clk.Set(exit.AddDate(0, 0, 364))
		if n, err := e.A.Handover.SweepExpiredPhotos(ctx); err != nil || n != 0 {
			t.Fatalf("sweep 364 days after: %d %v", n, err)
		}
		clk.Set(exit.AddDate(0, 0, 366))
		if n, err := e.A.Handover.SweepExpiredPhotos(ctx); err != nil || n != 5 {
			t.Fatalf("sweep 366 days after: deleted %d, %v; want 5", n, err)
		}
		if rows(old) != 0 || rows(later) != 5 || rows(inside) != 5 || rows(recent) != 5 || e.MediaFiles() != 30 {
			t.Errorf("after the sweep: %d, %d, %d, %d rows, %d files; want 0, 5, 5, 5 and 30", rows(old), rows(later), rows(inside), rows(recent), e.MediaFiles())
		}
		if n, err := e.A.Handover.SweepExpiredPhotos(ctx); err != nil || n != 0 {
			t.Errorf("second sweep: %d %v", n, err)
		}
		// Erasure: every photo of the customer's reservations.
		cust := e.Stored(later).CustomerID
		if n, err := e.A.Handover.DeleteCustomerPhotos(ctx, cust); err != nil || n != 5 {
			t.Fatalf("DeleteCustomerPhotos: %d %v", n, err)
		}
		if rows(later) != 0 || rows(inside) != 5 || e.MediaFiles() != 20 {
			t.Errorf("after erasure: %d, %d rows, %d files", rows(later), rows(inside), e.MediaFiles())
		}
		// The period is the facility setting: one day, and two days after its stay
		// the recent reservation's photos go.
		f, err := e.A.CatalogOps.Facility(ctx)
		if err != nil {
			t.Fatal(err)
		}
		f.PhotoRetentionDays = 1
		if _, err := e.A.CatalogOps.SaveFacility(ctx, f); err != nil {
			t.Fatal(err)
		}
		clk.Set(photoEntry.AddDate(1, 0, 5))
		if n, err := e.A.Handover.SweepExpiredPhotos(ctx); err != nil || n != 5 || rows(recent) != 0 || rows(inside) != 5 || e.MediaFiles() != 10 {
			t.Errorf("sweep with 1 day: deleted %d (%v); %d, %d rows, %d files", n, err, rows(recent), rows(inside), e.MediaFiles())
		}
	})
}

// docs/photos.md: with PARKING_S3_BUCKET the photos go to S3-compatible storage (an
// S3 server runs inside the test), nothing to the local directory; they are
// served from there and deleted from there.
func TestPhotosInS3(t *testing.T) {
	cfg := apptest.Config(t, store.SQLite)
	cfg.S3 = mediatest.S3(t, "fotos")
	e := webtest.AdminEnvWith(t, cfg)
	id := e.WalkIn(webtest.WalkInFields(1, photoEntry, 3, "A-1"))
	status, body := e.Upload(id, [][]byte{mediatest.JPEG(t, 400, 200, 6, true), mediatest.WebP()}, nil)
	if status != 201 {
		t.Fatalf("upload: %d %v", status, body)
	}
	if n := e.MediaFiles(); n != 0 {
		t.Errorf("%d files in the local directory with S3 configured", n)
	}
	path := photoPath(t, e, body["photos"].([]any)[0])
	r := webtest.Do(t, e.C, "GET", e.A.URL+path, nil)
	if c, _, err := image.DecodeConfig(strings.NewReader(r.Body)); r.StatusCode != 200 || err != nil || c.Width != 200 || c.Height != 400 {
		t.Fatalf("served from S3: %d %v %d×%d", r.StatusCode, err, c.Width, c.Height)
	}
	if n, err := e.A.Handover.DeleteCustomerPhotos(context.Background(), e.Stored(id).CustomerID); err != nil || n != 2 {
		t.Fatalf("delete: %d %v", n, err)
	}
	if _, err := e.A.Media.Get(context.Background(), strings.TrimPrefix(path, "/media/")); err == nil {
		t.Error("a deleted photo's object is still in the bucket")
	}
	if r := webtest.Do(t, e.C, "GET", e.A.URL+path, nil); r.StatusCode != 404 {
		t.Errorf("deleted photo: %d", r.StatusCode)
	}
}

// docs/photos.md, hand-over: mileage, fuel or charge level and damage notes are
// optional fields of the start and the finalize (JSON or form), stored with the
// transition, returned in the detail record and shown on the detail page and the
// receipt. A bad value refuses the transition and changes nothing.
func TestHandover(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		id := e.WalkIn(webtest.WalkInFields(1, photoEntry, 3, "A-1"))
		p := fmt.Sprint(id)
		e.AddPhotos(id, 5)
		for _, c := range []struct {
			body map[string]any
			msg  string
		}{
			{map[string]any{"mileage_km": -1}, "El campo mileage_km debe ser un número entero entre 0 y 9999999."},
			{map[string]any{"fuel_percent": 101}, "El campo fuel_percent debe ser un número entero entre 0 y 100."},
			{map[string]any{"fuel_percent": "medio"}, "El campo fuel_percent debe ser un número entero entre 0 y 100."},
			{map[string]any{"damage_notes": strings.Repeat("x", 2001)}, "El campo damage_notes admite como máximo 2000 caracteres."},
		} {
			status, body := e.JSON("PATCH", "/admin/reservations/"+p+"/start", c.body)
			webtest.WantMessage(t, status, body, 400, c.msg)
		}
		if st := e.Stored(id).Status; st != "PENDIENTE" || webtest.CountRows(t, e.A, "SELECT COUNT(*) FROM reservation_handover") != 0 {
			t.Fatalf("a refused start changed something: %s", st)
		}
		status, body := e.JSON("PATCH", "/admin/reservations/"+p+"/start", map[string]any{"mileage_km": 123456, "fuel_percent": "75", "damage_notes": " Rayón en la puerta "})
		if status != 200 {
			t.Fatalf("start: %d %v", status, body)
		}
		// Finalize as a form, as a page would send it.
		status, _, text := e.Send("PATCH", "/admin/reservations/"+p+"/finalize", "application/x-www-form-urlencoded",
			"paymentMethod=EFECTIVO&mileage_km=123789&fuel_percent=50&damage_notes=", "Accept", "application/json")
		if status != 200 {
			t.Fatalf("finalize: %d %s", status, text)
		}
		_, detail := e.JSON("GET", "/admin/reservations/details/"+p, nil)
		got := fmt.Sprint(detail["handovers"])
		want := "[map[damage_notes:Rayón en la puerta fuel_percent:75 mileage_km:123456 phase:entrada recorded_at:" +
			detail["handovers"].([]any)[0].(map[string]any)["recorded_at"].(string) + "] map[damage_notes:<nil> fuel_percent:50 mileage_km:123789 phase:salida recorded_at:" +
			detail["handovers"].([]any)[1].(map[string]any)["recorded_at"].(string) + "]]"
		if got != want {
			t.Errorf("handovers\n got %s\nwant %s", got, want)
		}
		page := e.Page("/admin/reservations/details/" + p)
		webtest.WantAll(t, "detail page", page.Body, "Entrega y recogida", "123.456 km", "75 %", "Rayón en la puerta", "123.789 km", "50 %", "Ninguno anotado")
		receipt := e.Page("/admin/reservations/details/" + p + "/receipt")
		webtest.WantAll(t, "receipt", receipt.Body, "data-receipt-handover", "Entrega del vehículo (entrada)", "Recogida del vehículo (salida)", "123.456 km", "123.789 km")
	})
}

// Without script, the upload form posts itself: 303 back to the detail page with
// ?photo=added, or ?error=… naming the problem; the detail page shows uploaded
// photos by their thumbnails and unknown vehicle data as a dash.
func TestUploadPhotosFormPost(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		id := e.WalkIn(webtest.WalkInFields(1, photoEntry, 3, "A-1"))
		p := fmt.Sprint(id)
		post := func(files [][]byte) (int, string) {
			body, ct := webtest.Multipart(t, files, map[string]string{"description": "Frontal", "phase": "entrada"})
			status, loc, _ := e.Send("POST", "/admin/reservations/"+p+"/photos", ct, body.String(), "Accept", "text/html")
			return status, loc
		}
		if status, loc := post([][]byte{mediatest.JPEG(t, 64, 48, 0, false)}); status != 303 || loc != "/admin/reservations/details/"+p+"?photo=added#fotos" {
			t.Errorf("form upload: %d %s", status, loc)
		}
		if status, loc := post([][]byte{[]byte("no es una foto")}); status != 303 || !strings.Contains(loc, "?error=La+foto+no+es+una+imagen") {
			t.Errorf("bad form upload: %d %s", status, loc)
		}
		page := e.Page("/admin/reservations/details/" + p)
		webtest.CheckPage(t, page)
		webtest.WantAll(t, "detail page", page.Body, `accept="image/*" capture="environment" multiple`, `enctype="multipart/form-data"`,
			`src="/media/photos/1/thumb"`, `href="/media/photos/1/large"`, `data-photo-count="1"`, "Entrada · ")
		webtest.WantAll(t, "vehicle facts", page.Body, `data-fact="brand">—`, `data-fact="color">—`)
	})
}

// docs/photos.md and the privacy erasure: erasing a guest's data on request removes
// the rows and the stored files of the photos of their reservations, and only
// theirs.
func TestEraseDeletesPhotoFiles(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		guest := e.WalkIn(webtest.WalkInFields(1, photoEntry, 3, "A-1"))
		other := e.WalkIn(webtest.WalkInFields(2, photoEntry, 3, "A-2"))
		pic := mediatest.JPEG(t, 64, 48, 0, false)
		for _, id := range []int64{guest, other} {
			if status, body := e.Upload(id, [][]byte{pic, pic}, nil); status != 201 {
				t.Fatalf("upload: %d %v", status, body)
			}
		}
		if n := e.MediaFiles(); n != 8 {
			t.Fatalf("%d files before the erasure, want 8", n)
		}
		cust := e.Stored(guest).CustomerID
		status, body := e.JSON("POST", fmt.Sprintf("/admin/customers/%d/erase", cust), map[string]any{"confirm": "ELIMINAR"})
		if status != 200 {
			t.Fatalf("erase: %d %v", status, body)
		}
		if n := e.MediaFiles(); n != 4 {
			t.Errorf("%d files after the erasure, want 4 (the other customer's)", n)
		}
		if n := webtest.CountRows(t, e.A, "SELECT COUNT(*) FROM photo_evidence WHERE id_reservation = $1", other); n != 2 {
			t.Errorf("the other customer's photos: %d rows, want 2", n)
		}
	})
}

// apiToken signs in by email and password at POST /api/auth/token and returns the
// bearer token.
func apiToken(t *testing.T, e *webtest.AdminEnv, email, password string) string {
	t.Helper()
	status, body := webtest.CustCall(t, nil, "POST", e.A.URL+"/api/auth/token", map[string]string{"email": email, "password": password})
	tok, _ := body["token"].(string)
	if status != 200 || tok == "" {
		t.Fatalf("token for %s: %d %v", email, status, body)
	}
	return tok
}

// Photos and API tokens (docs/photos.md#api-tokens): an administrator's token uploads
// photos (an API client of staff) and sees them; a customer's token does neither:
// the customer sees the photos of their reservation through the session only, and
// the token gets the same 404 as a missing photo.
func TestPhotosWithTokens(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		apptest.Account(t, e.A, reservation.Admin, "Api Admin", "api-admin@example.com", "600000009", "admin-password")
		owner, u := apptest.Customer(t, e.A, "ana@example.com", "600000001")
		id := e.WalkIn(webtest.WalkInFields(1, photoEntry, 3, "A-1"))
		e.Exec(`UPDATE reservation SET id_customer = $2 WHERE id_reservation = $1`, id, u.ID)
		adminTok := apiToken(t, e, "api-admin@example.com", "admin-password")
		custTok := apiToken(t, e, "ana@example.com", "customer-password")

		upload := func(auth string) (int, map[string]any) {
			body, ct := webtest.Multipart(t, [][]byte{mediatest.JPEG(t, 64, 48, 0, false)}, map[string]string{"description": "Frontal"})
			req, _ := http.NewRequest("POST", fmt.Sprintf("%s/admin/reservations/%d/photos", e.A.URL, id), body)
			req.Header.Set("Content-Type", ct)
			req.Header.Set("Accept", "application/json")
			if auth != "" {
				req.Header.Set("Authorization", "Bearer "+auth)
			}
			res, err := apptest.Client(t).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var out map[string]any
			_ = json.NewDecoder(res.Body).Decode(&out)
			return res.StatusCode, out
		}
		status, body := upload(adminTok)
		if status != 201 || body["photo_count"] != 1.0 {
			t.Fatalf("upload with an administrator's token: %d %v", status, body)
		}
		path := photoPath(t, e, body["photos"].([]any)[0])
		for auth, want := range map[string]int{custTok: 403, "not-a-token": 401} {
			if status, body := upload(auth); status != want {
				t.Errorf("upload with token %.6s…: %d %v, want %d", auth, status, body, want)
			}
		}
		if n := webtest.CountRows(t, e.A, `SELECT COUNT(*) FROM photo_evidence WHERE id_reservation = $1`, id); n != 1 {
			t.Errorf("%d photos stored, want the administrator's one", n)
		}
		if n := webtest.CountRows(t, e.A, `SELECT COUNT(*) FROM audit_entry WHERE actor_email = 'api-admin@example.com'`); n == 0 {
			t.Error("the token's upload is not in the audit trail under its administrator")
		}

		get := func(c *http.Client, auth string) webtest.Response {
			if auth == "" {
				return webtest.Do(t, c, "GET", e.A.URL+path, nil)
			}
			return webtest.Do(t, c, "GET", e.A.URL+path, nil, "Authorization: Bearer "+auth)
		}
		missing := webtest.Do(t, apptest.Client(t), "GET", e.A.URL+"/media/photos/99999/large", nil)
		if r := get(apptest.Client(t), adminTok); r.StatusCode != 200 || r.Header.Get("Content-Type") != "image/jpeg" {
			t.Errorf("administrator's token: %d", r.StatusCode)
		}
		if r := get(owner, ""); r.StatusCode != 200 {
			t.Errorf("owner's session: %d", r.StatusCode)
		}
		if r := get(apptest.Client(t), custTok); r.StatusCode != 404 || r.Body != missing.Body {
			t.Errorf("owner's token: %d, want the 404 of a missing photo", r.StatusCode)
		}
	})
}
