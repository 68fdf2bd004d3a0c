package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"parking/internal/reservation"
)

// InsertStoredPhoto adds an uploaded photo (its blobs already in the media store
// under storageKey) to a reservation, taken now. Its file_path is pathOf(its id):
// the address the service serves it at (docs/photos.md).
func (tx HandoverTx) InsertStoredPhoto(ctx context.Context, reservationID int64, phase, storageKey string, description *string, pathOf func(id int64) string) (reservation.Photo, error) {
	p := reservation.Photo{ReservationID: reservationID, Description: description, TakenAt: tx.Now, Phase: phase, StorageKey: storageKey}
	// The address holds the row's id, known after the insert: a placeholder first.
	if err := tx.QueryRow(ctx, `INSERT INTO photo_evidence (id_reservation, file_path, description, taken_at, phase, storage_key)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id_photo`, reservationID, "-", description, tx.Now, phase, storageKey).Scan(&p.ID); err != nil {
		return p, fmt.Errorf("add photo to %d: %w", reservationID, err)
	}
	p.FilePath = pathOf(p.ID)
	if _, err := tx.Exec(ctx, `UPDATE photo_evidence SET file_path = $2 WHERE id_photo = $1`, p.ID, p.FilePath); err != nil {
		return p, fmt.Errorf("set photo %d address: %w", p.ID, err)
	}
	return p, nil
}

// PhotoOwner is what serving a stored photo needs: its blobs' key and who may see
// it (the reservation's customer; staff always).
type PhotoOwner struct {
	StorageKey    string
	ReservationID int64
	CustomerID    int64
}

// PhotoOwner reads photo id's storage key and owner; ErrNotFound when there is no
// such photo or it was given by URL (nothing stored).
func (s Handover) PhotoOwner(ctx context.Context, id int64) (PhotoOwner, error) {
	var o PhotoOwner
	err := s.QueryRow(ctx, `SELECT p.storage_key, p.id_reservation, r.id_customer
		FROM photo_evidence p JOIN reservation r ON r.id_reservation = p.id_reservation
		WHERE p.id_photo = $1 AND p.storage_key IS NOT NULL`, id).Scan(&o.StorageKey, &o.ReservationID, &o.CustomerID)
	if noRows(err) {
		return o, ErrNotFound
	}
	if err != nil {
		return o, fmt.Errorf("photo %d: %w", id, err)
	}
	return o, nil
}

// StoredPhoto is a photo row and its blobs' key ("" for a photo given by URL).
type StoredPhoto struct {
	ID         int64
	StorageKey string
}

// ExpiredPhotos lists up to limit photos whose reservation's stay ended before
// cutoff: its exit date (its entry when it has none) is before cutoff, and the
// vehicle is not in the car park (EN CURSO keeps its photos, whatever the dates).
func (s Handover) ExpiredPhotos(ctx context.Context, cutoff time.Time, limit int) ([]StoredPhoto, error) {
	return s.storedPhotos(ctx, `SELECT p.id_photo, COALESCE(p.storage_key, '')
		FROM photo_evidence p JOIN reservation r ON r.id_reservation = p.id_reservation
		WHERE r.status <> 'EN CURSO' AND COALESCE(r.exit_date, r.entry_date) < $1
		ORDER BY p.id_photo LIMIT $2`, cutoff.UTC(), limit)
}

// CustomerPhotos lists every photo of customer id's reservations.
func (s Handover) CustomerPhotos(ctx context.Context, customerID int64) ([]StoredPhoto, error) {
	return s.storedPhotos(ctx, `SELECT p.id_photo, COALESCE(p.storage_key, '')
		FROM photo_evidence p JOIN reservation r ON r.id_reservation = p.id_reservation
		WHERE r.id_customer = $1 ORDER BY p.id_photo`, customerID)
}

func (s Handover) storedPhotos(ctx context.Context, q string, args ...any) ([]StoredPhoto, error) {
	rows, err := s.Generated().Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list photos: %w", err)
	}
	var out []StoredPhoto
	for rows.Next() {
		var p StoredPhoto
		if err := rows.Scan(&p.ID, &p.StorageKey); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, p)
	}
	return out, closeRows(rows)
}

// DeletePhotos deletes the photo rows of ids (missing ones are skipped) and
// returns how many went.
func (tx HandoverTx) DeletePhotos(ctx context.Context, ids []int64) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	ph := make([]string, len(ids))
	args := make([]any, len(ids))
	for i, id := range ids {
		ph[i] = fmt.Sprintf("$%d", i+1)
		args[i] = id
	}
	res, err := tx.Exec(ctx, `DELETE FROM photo_evidence WHERE id_photo IN (`+strings.Join(ph, ", ")+`)`, args...)
	if err != nil {
		return 0, fmt.Errorf("delete photos: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// InsertPhoto adds a photo to a reservation, taken now, and returns it with the
// reservation's photo count after the insert.
func (tx HandoverTx) InsertPhoto(ctx context.Context, reservationID int64, filePath string, description *string) (reservation.Photo, int, error) {
	p := reservation.Photo{ReservationID: reservationID, FilePath: filePath, Description: description, TakenAt: tx.Now, Phase: reservation.PhaseEntry}
	if err := tx.QueryRow(ctx, `INSERT INTO photo_evidence (id_reservation, file_path, description, taken_at)
		VALUES ($1, $2, $3, $4) RETURNING id_photo`, reservationID, filePath, description, tx.Now).Scan(&p.ID); err != nil {
		return p, 0, fmt.Errorf("add photo to %d: %w", reservationID, err)
	}
	n, err := tx.PhotoCount(ctx, reservationID)
	return p, n, err
}

// PhotoCount counts a reservation's entry photos: the ones the spec's five-photo
// rule counts (docs/photos.md; exit photos do not count).
func (tx HandoverTx) PhotoCount(ctx context.Context, reservationID int64) (int, error) {
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM photo_evidence WHERE id_reservation = $1 AND phase = 'entrada'`, reservationID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count photos of %d: %w", reservationID, err)
	}
	return n, nil
}

// Photos lists a reservation's photos in the order they were taken.
func (s Handover) Photos(ctx context.Context, reservationID int64) ([]reservation.Photo, error) {
	rows, err := s.Query(ctx, `SELECT id_photo, id_reservation, file_path, description, taken_at, phase, COALESCE(storage_key, '')
		FROM photo_evidence WHERE id_reservation = $1 ORDER BY taken_at, id_photo`, reservationID)
	if err != nil {
		return nil, fmt.Errorf("photos of %d: %w", reservationID, err)
	}
	out := []reservation.Photo{}
	for rows.Next() {
		var p reservation.Photo
		var desc sql.NullString
		if err := rows.Scan(&p.ID, &p.ReservationID, &p.FilePath, &desc, &p.TakenAt, &p.Phase, &p.StorageKey); err != nil {
			rows.Close()
			return nil, err
		}
		if desc.Valid {
			p.Description = &desc.String
		}
		p.TakenAt = p.TakenAt.UTC()
		out = append(out, p)
	}
	return out, closeRows(rows)
}
