package handover

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"parking/internal/audit"
	"parking/internal/i18n"

	"parking/internal/fault"
	"parking/internal/input"
	"parking/internal/media"
	"parking/internal/reservation"
	"parking/internal/settings"
	"parking/internal/store"
)

// Uploaded photos (docs/photos.md): the files staff take at the counter are
// checked and reduced (media.Process), their blobs put in the media store, then
// their rows written in one transaction; a failure anywhere leaves no row and no
// blob. Photos are personal data: served only to staff and to the reservation's
// customer (PhotoFile), deleted after the retention period (SweepExpiredPhotos)
// and when the customer's data is erased (DeleteCustomerPhotos).

// MaxPhotosPerUpload bounds the files of one upload request.
const MaxPhotosPerUpload = 20

// Photo renditions, as named in the addresses /media/photos/{id}/{size}.
const (
	PhotoLarge = "large"
	PhotoThumb = "thumb"
)

type photoConfig struct {
	media   media.Store
	baseURL string
}

// WithMedia sets the store of uploaded photos and the service's public address
// (PARKING_BASE_URL), under which a stored photo's file_path is
// {baseURL}/media/photos/{id}/large. Without it, uploads are refused.
func WithMedia(m media.Store, baseURL string) Option {
	return func(s *Service) { s.photos.media, s.photos.baseURL = m, strings.TrimRight(baseURL, "/") }
}

// PhotoPath is the address, relative to the service, of photo id's rendition size.
func PhotoPath(id int64, size string) string {
	return "/media/photos/" + strconv.FormatInt(id, 10) + "/" + size
}

// ParsePhase reads a photo or hand-over phase: "" is the default, entrada.
func ParsePhase(raw string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(raw)) {
	case "", reservation.PhaseEntry:
		return reservation.PhaseEntry, nil
	case reservation.PhaseExit:
		return reservation.PhaseExit, nil
	}
	return "", fault.Coded(fault.Invalid, "err.handover.phase", "Field", i18n.FieldName("phase"))
}

// CheckPhotoUpload refuses, before the work of decoding, an upload to reservation
// id that AddUploadedPhotos would refuse: an unknown reservation (NotFound), one
// that takes no more photos, a bad phase or description.
func (s *Service) CheckPhotoUpload(ctx context.Context, id int64, description, phase string) error {
	if _, _, err := photoFields(description, phase); err != nil {
		return err
	}
	r, err := s.store.Reservations().Reservation(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return fault.Coded(fault.NotFound, "err.handover.reservation_not_found", "ID", id)
	}
	if err != nil {
		return err
	}
	if !reservation.For(r.Status).AddPhotos {
		return noPhotos(id, r.Status)
	}
	return nil
}

// noPhotos refuses a photo to reservation id, whose status takes none
// (docs/reservations.md#per-state-rules).
func noPhotos(id int64, status reservation.Status) error {
	return fault.Coded(fault.Invalid, "err.handover.no_photos", "ID", id, "Status", status.Word())
}

func photoFields(description, phase string) (*string, string, error) {
	ph, err := ParsePhase(phase)
	if err != nil {
		return nil, "", err
	}
	d, err := input.Text("description", description, input.MaxPhotoDescription)
	if err != nil || d == "" {
		return nil, ph, err
	}
	return &d, ph, nil
}

// ProcessPhotos checks and reduces uploaded images (each read from its start; the
// caller enforces media.MaxUpload bytes a file while reading): each must be a
// JPEG, PNG or WebP image within media's pixel limits. The first bad file refuses
// them all, naming it. It does no database work, so the caller runs it outside the
// request's database deadline.
func ProcessPhotos(ctx context.Context, files []io.ReadSeeker) ([]media.Processed, error) {
	switch {
	case len(files) == 0:
		return nil, fault.Coded(fault.Invalid, "err.handover.no_photo_received")
	case len(files) > MaxPhotosPerUpload:
		return nil, fault.Coded(fault.Invalid, "err.handover.too_many_photos", "Max", MaxPhotosPerUpload)
	}
	done := make([]media.Processed, len(files))
	for i, f := range files {
		var err error
		if done[i], err = media.ProcessContext(ctx, f); err != nil {
			return nil, photoFault(i+1, len(files), err)
		}
	}
	return done, nil
}

// AddUploadedPhotos stores processed photos (ProcessPhotos) as photos of
// reservation id in phase ("" = entrada), with an optional description shared by
// all: the blobs first, then the rows in one transaction; when the transaction
// fails the blobs are removed, so nothing is left behind. It returns the new
// photos and the reservation's entry-photo count (the spec's five-photo rule
// counts entrada only, docs/photos.md).
func (s *Service) AddUploadedPhotos(ctx context.Context, id int64, photos []media.Processed, description, phase string) ([]reservation.Photo, int, error) {
	if s.photos.media == nil {
		return nil, 0, errors.New("upload photos: no media store configured")
	}
	desc, ph, err := photoFields(description, phase)
	if err != nil {
		return nil, 0, err
	}
	if len(photos) == 0 || len(photos) > MaxPhotosPerUpload {
		return nil, 0, fault.Coded(fault.Invalid, "err.handover.photo_count", "Max", MaxPhotosPerUpload)
	}
	keys, err := s.putPhotos(ctx, photos)
	if err != nil {
		return nil, 0, err
	}
	var out []reservation.Photo
	var count int
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		out = out[:0]
		r, err := lockForAdmin(ctx, tx, id)
		if err != nil {
			return err
		}
		// docs/reservations.md#per-state-rules: photos are addable in PENDIENTE and EN CURSO only.
		if !reservation.For(r.Status).AddPhotos {
			return noPhotos(id, r.Status)
		}
		for _, key := range keys {
			p, err := tx.Handover().InsertStoredPhoto(ctx, id, ph, key, desc, func(pid int64) string { return s.photos.baseURL + PhotoPath(pid, PhotoLarge) })
			if err != nil {
				return err
			}
			out = append(out, p)
		}
		if count, err = tx.Handover().PhotoCount(ctx, id); err != nil {
			return err
		}
		// The audit trail records each photo, as for one added by its address; an
		// exit photo does not change the entry-photo count.
		for i, p := range out {
			if ph != reservation.PhaseEntry {
				err = auditReservation(ctx, tx, audit.ActionPhoto, id, nil, audit.F("photo_"+ph, p.FilePath))
			} else {
				err = auditPhoto(ctx, tx, id, count-len(out)+i+1, p)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		s.deleteBlobs(context.WithoutCancel(ctx), keys)
		return nil, 0, fmt.Errorf("upload photos to reservation %d: %w", id, err)
	}
	return out, count, nil
}

// photoFault is the refusal of file n of total, naming it when there are several.
func photoFault(n, total int, err error) error {
	// The catalogue's key names the one photo ("…_one") or photo n of total.
	suffix, args := "_one", []any{}
	if total > 1 {
		suffix, args = "_nth", []any{"N", n, "Total", total}
	}
	switch {
	case errors.Is(err, media.ErrFormat):
		return fault.Coded(fault.Invalid, "err.handover.photo_format"+suffix, args...)
	case errors.Is(err, media.ErrTooHeavy):
		return fault.Coded(fault.Invalid, "err.handover.photo_heavy"+suffix, args...)
	case errors.Is(err, media.ErrTooLarge):
		args = append(args, "Side", media.MaxSide, "Megapixels", media.MaxPixels/1_000_000)
		return fault.Coded(fault.Invalid, "err.handover.photo_large"+suffix, args...)
	case errors.Is(err, media.ErrDecode):
		return fault.Coded(fault.Invalid, "err.handover.photo_unreadable"+suffix, args...)
	}
	return fmt.Errorf("process photo %d: %w", n, err)

}

// putPhotos puts each photo's renditions under a new random key and returns the
// keys; on a failure it removes what it put.
func (s *Service) putPhotos(ctx context.Context, done []media.Processed) ([]string, error) {
	keys := make([]string, 0, len(done))
	for _, p := range done {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		key := "photos/" + hex.EncodeToString(b[:])
		keys = append(keys, key)
		for _, r := range []struct {
			name string
			data []byte
		}{{PhotoLarge, p.Large}, {PhotoThumb, p.Thumb}} {
			if err := s.photos.media.Put(ctx, blobKey(key, r.name), bytes.NewReader(r.data), int64(len(r.data)), "image/jpeg"); err != nil {
				s.deleteBlobs(context.WithoutCancel(ctx), keys)
				return nil, fmt.Errorf("store photo: %w", err)
			}
		}
	}
	return keys, nil
}

func blobKey(key, size string) string { return key + "/" + size + ".jpg" }

// deleteBlobs removes the renditions of keys; it reports the first failure (the
// others are still tried).
func (s *Service) deleteBlobs(ctx context.Context, keys []string) error {
	var first error
	for _, key := range keys {
		for _, size := range []string{PhotoLarge, PhotoThumb} {
			if err := s.photos.media.Delete(ctx, blobKey(key, size)); err != nil {
				s.log.WarnContext(ctx, "photo blob not deleted", "key", key, "err", err)
				if first == nil {
					first = err
				}
			}
		}
	}
	return first
}

// PhotoViewer is who asks for a photo: staff, or a signed-in customer.
type PhotoViewer struct {
	Staff      bool
	CustomerID int64
}

// PhotoRef names one rendition of a stored photo that a viewer may see.
type PhotoRef struct{ key string }

// PhotoAccess finds rendition size of stored photo id for viewer. Anyone but staff
// and an account that sees the reservation gets NotFound, exactly as for a photo that
// does not exist, so that the answer tells nothing about other people's photos.
// It is the database half of serving a photo (OpenPhoto reads the file), so that
// the caller can bound it by the database deadline and not the transfer.
func (s *Service) PhotoAccess(ctx context.Context, id int64, size string, viewer PhotoViewer) (PhotoRef, error) {
	missing := errNoPhoto
	if (size != PhotoLarge && size != PhotoThumb) || s.photos.media == nil {
		return PhotoRef{}, missing
	}
	o, err := s.store.Handover().PhotoOwner(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return PhotoRef{}, missing
	}
	if err != nil {
		return PhotoRef{}, err
	}
	if !viewer.Staff {
		// A customer sees the photos of the reservations its account sees (accountSees).
		if viewer.CustomerID == 0 || viewer.CustomerID != o.CustomerID {
			return PhotoRef{}, missing
		}
		r, err := s.store.Reservations().Reservation(ctx, o.ReservationID)
		if err != nil {
			return PhotoRef{}, err
		}
		if ok, err := accountSees(viewer.CustomerID)(ctx, s.store.Customers(), r); err != nil {
			return PhotoRef{}, err
		} else if !ok {
			return PhotoRef{}, missing
		}
	}
	return PhotoRef{key: blobKey(o.StorageKey, size)}, nil
}

// OpenPhoto opens the file of ref (PhotoAccess); NotFound when it is gone.
func (s *Service) OpenPhoto(ctx context.Context, ref PhotoRef) (io.ReadCloser, error) {
	if ref.key == "" || s.photos.media == nil {
		return nil, errNoPhoto
	}
	rc, err := s.photos.media.Get(ctx, ref.key)
	if errors.Is(err, media.ErrNotFound) {
		return nil, errNoPhoto
	}
	return rc, err
}

// photoSweepBatch is how many photos one round of a sweep deletes.
const photoSweepBatch = 200

// SweepExpiredPhotos deletes the photos (blobs and rows) of stays that ended more
// than the retention period ago (docs/photos.md: the facility settings'
// PhotoRetentionDays, default 365 days after the exit date), as of the service's
// clock. It returns how many photos were deleted. The app runs it periodically;
// running it twice is harmless.
func (s *Service) SweepExpiredPhotos(ctx context.Context) (int, error) {
	f, err := s.store.Catalog().Facility(ctx)
	if err != nil {
		return 0, fmt.Errorf("photo retention: %w", err)
	}
	days := f.PhotoRetentionDays
	if days <= 0 {
		days = settings.DefaultPhotoRetentionDays
	}
	cutoff := s.now().Add(-time.Duration(days) * 24 * time.Hour)
	total := 0
	for {
		list, err := s.store.Handover().ExpiredPhotos(ctx, cutoff, photoSweepBatch)
		if err != nil {
			return total, err
		}
		n, err := s.deletePhotos(ctx, list)
		total += n
		if err != nil || len(list) < photoSweepBatch {
			return total, err
		}
	}
}

// DeleteCustomerPhotos deletes every photo (blobs and rows) of customer
// customerID's reservations and returns how many went. It is the photo part of
// erasing a customer's personal data (GDPR art. 17): the erasure calls it before
// removing or anonymising the customer. Blobs go first, so a failure leaves the
// rows for a retry, never a blob no row points to.
func (s *Service) DeleteCustomerPhotos(ctx context.Context, customerID int64) (int, error) {
	list, err := s.store.Handover().CustomerPhotos(ctx, customerID)
	if err != nil {
		return 0, err
	}
	return s.deletePhotos(ctx, list)
}

// deletePhotos deletes the blobs of list, then the rows of those whose blobs went.
func (s *Service) deletePhotos(ctx context.Context, list []store.StoredPhoto) (int, error) {
	ids := make([]int64, 0, len(list))
	var blobErr error
	for _, p := range list {
		if p.StorageKey != "" && s.photos.media != nil {
			if err := s.deleteBlobs(ctx, []string{p.StorageKey}); err != nil {
				blobErr = errors.Join(blobErr, err)
				continue
			}
		}
		ids = append(ids, p.ID)
	}
	var n int
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		var err error
		n, err = tx.Handover().DeletePhotos(ctx, ids)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("delete photos: %w", err)
	}
	if blobErr != nil {
		return n, fmt.Errorf("delete photo files: %w", blobErr)
	}
	return n, nil
}

// DeletePhotoFiles deletes both renditions of the uploaded photos with these
// storage keys, whose rows an erasure has deleted (privacy.PhotoFiles).
func (s *Service) DeletePhotoFiles(ctx context.Context, keys []string) error {
	if s.photos.media == nil {
		return nil
	}
	return s.deleteBlobs(ctx, keys)
}

// errNoPhoto is the answer for a photo that does not exist or that the viewer may
// not see.
var errNoPhoto = fault.Coded(fault.NotFound, "err.handover.photo_not_found")
