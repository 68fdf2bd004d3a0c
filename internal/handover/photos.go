package handover

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/input"
	"parking/internal/reservation"
	"parking/internal/store"
)

// MaxPhotoURL is the schema's limit on a photo's address (the description's is
// input.MaxPhotoDescription).
const MaxPhotoURL = 2048

// AddPhoto records a photo of the vehicle on reservation id (spec, POST
// /admin/reservations/{id}/photos): file_path must be an absolute http(s) URL
// (docs/errors.md#operation-responses), the description at most 255 characters, and the reservation
// neither FINALIZADA nor CANCELADA. It returns the photo and the new photo count.
func (s *Service) AddPhoto(ctx context.Context, id int64, filePath, description string) (reservation.Photo, int, error) {
	filePath = strings.TrimSpace(filePath)
	if err := checkPhotoURL(filePath); err != nil {
		return reservation.Photo{}, 0, err
	}
	var desc *string
	d, err := input.Text("description", description, input.MaxPhotoDescription)
	if err != nil {
		return reservation.Photo{}, 0, err
	}
	if d != "" {
		desc = &d
	}
	var photo reservation.Photo
	var count int
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		r, err := lockForAdmin(ctx, tx, id)
		if err != nil {
			return err
		}
		// docs/reservations.md#per-state-rules: photos are addable in PENDIENTE and EN CURSO only.
		if !reservation.For(r.Status).AddPhotos {
			return noPhotos(id, r.Status)
		}
		if photo, count, err = tx.Handover().InsertPhoto(ctx, id, filePath, desc); err != nil {
			return err
		}
		return auditPhoto(ctx, tx, id, count, photo)
	})
	if err != nil {
		return reservation.Photo{}, 0, fmt.Errorf("add photo to reservation %d: %w", id, err)
	}
	return photo, count, nil
}

// auditPhoto records a photo added to reservation id, count being the photo count
// with it. Every way of adding a photo (an address, an upload) calls it in its
// transaction.
func auditPhoto(ctx context.Context, tx *store.Tx, id int64, count int, p reservation.Photo) error {
	label := p.FilePath
	if p.Description != nil && *p.Description != "" {
		label += " (" + *p.Description + ")"
	}
	return auditReservation(ctx, tx, audit.ActionPhoto, id,
		audit.F("photos", strconv.Itoa(count-1)),
		audit.F("photos", strconv.Itoa(count), "photo", label))
}

// checkPhotoURL accepts an absolute http or https URL with a host, and nothing that
// a page could turn into script (javascript:, data:) or that points nowhere
// (relative paths).
func checkPhotoURL(raw string) error {
	if raw == "" {
		return fault.Coded(fault.Invalid, "err.handover.photo_url_required", "Field", i18n.FieldName("file_path"))
	}
	if utf8.RuneCountInString(raw) > MaxPhotoURL {
		return fault.Coded(fault.Invalid, "err.input.too_long", "Field", i18n.FieldName("file_path"), "Max", MaxPhotoURL)
	}
	bad := fault.Coded(fault.Invalid, "err.handover.photo_url", "Field", i18n.FieldName("file_path"))
	if strings.IndexFunc(raw, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || r == '<' || r == '>' || r == '"'
	}) >= 0 {
		return bad
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return bad
	}
	if scheme := strings.ToLower(u.Scheme); scheme != "http" && scheme != "https" {
		return bad
	}
	if u.User != nil {
		return fault.Coded(fault.Invalid, "err.handover.photo_url_credentials", "Field", i18n.FieldName("file_path"))

	}
	return nil
}
