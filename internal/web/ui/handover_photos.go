package ui

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strconv"
	"time"

	"parking/internal/fault"
	"parking/internal/handover"
	"parking/internal/i18n"
	"parking/internal/media"
	"parking/internal/records"
	"parking/internal/reservation"
	"parking/internal/web/httpx"
)

// Photos uploaded from the counter (docs/photos.md).

func isMultipart(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt == "multipart/form-data"
}

// uploadSlack is what a multipart body may hold beyond its files: boundaries, part
// headers and the small fields.
const uploadSlack = 1 << 20

// upload is a multipart upload read to temporary files.
type upload struct {
	files  []*os.File
	fields map[string]string
}

func (u *upload) close() {
	for _, f := range u.files {
		f.Close()
		os.Remove(f.Name())
	}
}

func (u *upload) readers() []io.ReadSeeker {
	out := make([]io.ReadSeeker, len(u.files))
	for i, f := range u.files {
		out[i] = f
	}
	return out
}

// readUpload streams a multipart body: each "file" part to a temporary file (at
// most media.MaxUpload bytes: one byte more refuses the whole upload), the fields
// description, phase and file_path to memory (8 KiB each at most), anything else
// to nowhere. The caller closes the upload, which removes the files.
func readUpload(w http.ResponseWriter, r *http.Request) (*upload, error) {
	u := &upload{fields: map[string]string{}}
	lang := httpx.LangOf(r)
	r.Body = http.MaxBytesReader(w, r.Body, handover.MaxPhotosPerUpload*(media.MaxUpload+uploadSlack))
	mr, err := r.MultipartReader()
	if err != nil {
		return u, fault.Coded(fault.Invalid, "photos.unreadable_multipart")
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return u, nil
		}
		if err != nil {
			return u, uploadReadFault(lang, err)
		}
		switch name := part.FormName(); name {
		case "file", "file[]", "files":
			if len(u.files) == handover.MaxPhotosPerUpload {
				return u, fault.Coded(fault.Invalid, "photos.too_many", "Max", handover.MaxPhotosPerUpload)
			}
			f, err := os.CreateTemp("", "parking-photo-*")
			if err != nil {
				return u, fmt.Errorf("upload: temporary file: %w", err)
			}
			u.files = append(u.files, f)
			n, err := io.Copy(f, io.LimitReader(part, media.MaxUpload+1))
			if err != nil {
				return u, uploadReadFault(lang, err)
			}
			if n > media.MaxUpload {
				return u, fault.Coded(fault.Invalid, "photos.too_big", "N", len(u.files), "MB", media.MaxUpload>>20)
			}
			if n == 0 && part.FileName() == "" { // a form's file input left empty
				u.files = u.files[:len(u.files)-1]
				f.Close()
				os.Remove(f.Name())
			}
		case "description", "phase", "file_path":
			b, err := io.ReadAll(io.LimitReader(part, 8<<10))
			if err != nil {
				return u, uploadReadFault(lang, err)
			}
			u.fields[name] = string(b)
		default:
			if _, err := io.Copy(io.Discard, part); err != nil {
				return u, uploadReadFault(lang, err)
			}
		}
	}
}

// photoByURLAdded answers a photo by URL (form field or multipart file_path): 201
// {success, photo, photo_count}, a browser sent back to the photos, or the refusal.
func (s handoverPages) photoByURLAdded(w http.ResponseWriter, r *http.Request, page bool, back string, photo reservation.Photo, count int, err error) {
	switch {
	case err != nil:
		s.FailBack(w, r, err, page, back, "#fotos")
	case page:
		httpx.SeeOther(w, r, back+"?photo=added#fotos")
	default:
		httpx.WriteJSON(w, http.StatusCreated, map[string]any{"success": true, "photo": s.adminPhoto(photo), "photo_count": count})
	}
}

func uploadReadFault(lang string, err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return fault.Coded(fault.Invalid, "photos.upload_too_big", "Max", handover.MaxPhotosPerUpload, "MB", media.MaxUpload>>20)
	}
	return fault.Coded(fault.Invalid, "photos.unreadable")
}

// adminUploadPhotos is POST /admin/reservations/{id}/photos as multipart/form-data
// (docs/photos.md): one or more "file" parts and optional description and phase →
// 201 {"success":true,"photos":[…],"photo_count"}. A multipart form with
// file_path and no file is a photo by URL (docs/errors.md#operation-responses). All or nothing: a bad
// file refuses the upload and nothing is stored.
func (s handoverPages) adminUploadPhotos(w http.ResponseWriter, r *http.Request, id int64, page bool, back string) {
	// Refuse an unknown or closed reservation before reading the files.
	ctx, cancel := s.DBContext(r)
	err := s.handover.CheckPhotoUpload(ctx, id, "", "")
	cancel()
	if err != nil {
		s.FailBack(w, r, err, page, back, "#fotos")
		return
	}
	// A phone on a slow network may need minutes to send several photos: this
	// request reads for longer than the server's default read timeout.
	// Decoding waits its turn (media: bounded by memory): the answer may come later
	// than the server's default write timeout too.
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(10 * time.Minute))
	_ = rc.SetWriteDeadline(time.Now().Add(15 * time.Minute))
	up, err := readUpload(w, r)
	defer up.close()
	if err != nil {
		s.FailBack(w, r, err, page, back, "#fotos")
		return
	}
	if len(up.files) == 0 && up.fields["file_path"] != "" {
		ctx, cancel := s.DBContext(r)
		defer cancel()
		photo, count, err := s.handover.AddPhoto(ctx, id, up.fields["file_path"], up.fields["description"])
		s.photoByURLAdded(w, r, page, back, photo, count, err)
		return
	}
	desc, phase := up.fields["description"], up.fields["phase"]
	ctx, cancel = s.DBContext(r)
	err = s.handover.CheckPhotoUpload(ctx, id, desc, phase)
	cancel()
	if err != nil {
		s.FailBack(w, r, err, page, back, "#fotos")
		return
	}
	processed, err := handover.ProcessPhotos(r.Context(), up.readers())
	if err != nil {
		s.FailBack(w, r, err, page, back, "#fotos")
		return
	}
	ctx, cancel = s.DBContext(r)
	defer cancel()
	photos, count, err := s.handover.AddUploadedPhotos(ctx, id, processed, desc, phase)
	if err != nil {
		s.FailBack(w, r, err, page, back, "#fotos")
		return
	}
	if page {
		httpx.SeeOther(w, r, back+"?photo=added#fotos")
		return
	}
	out := make([]adminPhotoJSON, len(photos))
	for i, p := range photos {
		out[i] = s.adminPhoto(p)
	}
	httpx.WriteJSON(w, http.StatusCreated, map[string]any{"success": true, "photos": out, "photo_count": count})
}

// mediaPhoto is GET /media/photos/{id}/{size}: a stored photo's reduced copy
// ("large") or thumbnail ("thumb"), to staff (session or API token) and to the
// reservation's own customer (session). Anyone else — another customer, nobody
// signed in — gets the same 404 as for a photo that does not exist (docs/photos.md:
// photos are personal data).
func (s handoverPages) mediaPhoto(w http.ResponseWriter, r *http.Request) {
	notFound := func() {
		s.ErrorPage(w, r, http.StatusNotFound, "error.not_found", "error.not_found_msg")
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		notFound()
		return
	}
	u, ok := s.Viewer(r)
	if !ok {
		notFound()
		return
	}
	viewer := handover.PhotoViewer{Staff: u.IsAdmin()}
	if !viewer.Staff {
		// A customer sees the photos through the session only, never with an API
		// token (docs/photos.md#api-tokens).
		if httpx.BearerToken(r) != "" {
			notFound()
			return
		}
		viewer.CustomerID = u.ID
	}
	// The route is exempt from the request-wide database deadline, so that a slow
	// transfer is not cut: the lookup gets it here.
	ctx, cancel := s.DBContext(r)
	ref, err := s.handover.PhotoAccess(ctx, id, r.PathValue("size"), viewer)
	cancel()
	var rc io.ReadCloser
	if err == nil {
		rc, err = s.handover.OpenPhoto(r.Context(), ref)
	}
	if fault.KindOf(err) == fault.NotFound {
		notFound()
		return
	}
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	defer rc.Close()
	h := w.Header()
	h.Set("Content-Type", "image/jpeg")
	// Personal data: kept by the viewer's browser only, never by a shared cache.
	h.Set("Cache-Control", "private, max-age=86400")
	h.Set("Vary", "Cookie, Authorization")
	h.Set("X-Content-Type-Options", "nosniff")
	if _, err := io.Copy(w, rc); err != nil {
		s.Log().DebugContext(r.Context(), "photo not fully sent", "photo", id, "err", err)
	}
}

// photoPhase is the label of a photo's phase.
func photoPhase(wd words, p reservation.Photo) string {
	if p.Phase == reservation.PhaseExit {
		return wd.t("words.photo_exit")
	}
	return wd.t("words.photo_entry")
}

// handoverInput reads the optional hand-over fields of a start or finalize
// (docs/photos.md): mileage_km, fuel_percent, damage_notes, in JSON or a form.
func handoverInput(in httpx.Input) handover.Input {
	return handover.Input{MileageKm: in.Str("mileage_km"), FuelPercent: in.Str("fuel_percent"), DamageNotes: in.Str("damage_notes")}
}

// handovers are d's hand-over records for the detail page and the receipt, their
// words from text (the page's language; the receipt's languages).
func (s *base) handovers(d records.Detail, wd words, text func(key string) string) []detailHandover {
	var out []detailHandover
	for _, h := range d.Handovers {
		v := detailHandover{Label: text("words.handover_entry"), When: wd.dateTime(h.RecordedAt), Mileage: "—", Fuel: "—", Damage: text("words.no_damage")}
		if h.Phase == reservation.PhaseExit {
			v.Label = text("words.handover_exit")
		}
		if h.MileageKm != nil {
			v.Mileage = i18n.Number(wd.lang, int64(*h.MileageKm)) + " km"
		}
		if h.FuelPercent != nil {
			v.Fuel = strconv.Itoa(*h.FuelPercent) + " %"
		}
		if h.DamageNotes != nil {
			v.Damage = *h.DamageNotes
		}
		out = append(out, v)
	}
	return out
}

// keysText says whether the keys were handed over at the start.
func keysText(wd words, handed bool) string {
	if handed {
		return wd.t("words.keys_handed")
	}
	return wd.t("words.keys_not_handed")
}

// adminAddPhoto is POST /admin/reservations/{id}/photos: 201 {success, photo,
// photo_count} (docs/errors.md#operation-responses). A browser's form post (no script) gets 303 back to
// the detail page with ?photo=added or ?error=….
func (s handoverPages) adminAddPhoto(w http.ResponseWriter, r *http.Request) {
	page := httpx.BrowserForm(r)
	id, err := reservationID(r)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	back := "/admin/reservations/details/" + strconv.FormatInt(id, 10)
	// docs/photos.md: multipart with file parts is an upload (handover_photos.go).
	if isMultipart(r) {
		s.adminUploadPhotos(w, r, id, page, back)
		return
	}
	// This route is exempt from the request-wide database deadline (for uploads):
	// a photo by URL gets it here.
	ctx, cancel := s.DBContext(r)
	defer cancel()
	in, err := httpx.ReadInput(w, r)
	var photo reservation.Photo
	var count int
	if err == nil {
		photo, count, err = s.handover.AddPhoto(ctx, id, in.Str("file_path"), in.Str("description"))
	}
	s.photoByURLAdded(w, r, page, back, photo, count, err)
}
