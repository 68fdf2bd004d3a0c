package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// MainServiceName reads the name of a main service (inactive ones included).
func (s *Store) MainServiceName(ctx context.Context, id int64) (string, error) {
	var name string
	if err := s.read.QueryRowContext(ctx, `SELECT name FROM main_service WHERE id_main_service = $1`, id).Scan(&name); err != nil {
		return "", fmt.Errorf("main service %d: %w", id, notFound(err))
	}
	return name, nil
}

// NotificationEntry is one row of a reservation's notification history: its outbox
// row without the payload (CONTRACT §9).
type NotificationEntry struct {
	ID        int64
	Type      string
	Status    string
	Attempts  int
	CreatedAt time.Time
	SentAt    *time.Time
	LastError *string
}

// ReservationNotifications lists the outbox rows of a reservation, oldest first,
// for the detail record's notification history.
func (s *Store) ReservationNotifications(ctx context.Context, reservationID int64) ([]NotificationEntry, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, type, status, attempts, created_at, sent_at, last_error
		FROM notification WHERE id_reservation = $1 ORDER BY created_at, id`, reservationID)
	if err != nil {
		return nil, fmt.Errorf("notifications of %d: %w", reservationID, err)
	}
	out := []NotificationEntry{}
	for rows.Next() {
		var n NotificationEntry
		var sent sql.NullTime
		var lastErr sql.NullString
		if err := rows.Scan(&n.ID, &n.Type, &n.Status, &n.Attempts, &n.CreatedAt, &sent, &lastErr); err != nil {
			rows.Close()
			return nil, err
		}
		n.CreatedAt = n.CreatedAt.UTC()
		n.SentAt = timePtr(sent)
		if lastErr.Valid {
			n.LastError = &lastErr.String
		}
		out = append(out, n)
	}
	return out, closeRows(rows)
}
