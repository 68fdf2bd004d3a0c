package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"parking/internal/database"

	"parking/internal/reservation"
)

// The notification outbox (docs/notifications.md#delivery): rows are inserted inside the transaction of
// the change that triggers them, claimed by dispatchers with a lease, and their
// outcome recorded. The same rows are the reservation's notification history.

// Notification statuses as stored.
const (
	NotificationPending = "pending"
	NotificationSent    = "sent"
	NotificationFailed  = "failed"
	NotificationSkipped = "skipped"
)

// NotificationSubject is everything a notification payload is built from, read in
// the triggering transaction so that it shows the change being committed.
type NotificationSubject struct {
	Reservation     reservation.Reservation
	Customer        reservation.Customer
	Vehicle         reservation.Vehicle
	MainServiceName string
	Extras          []reservation.BookedExtraDetail
	// ReceiptNumber is the number of the reservation's current receipt
	// (docs/receipts.md); "" before finalize.
	ReceiptNumber string
}

// NotificationSubject reads a reservation with its customer, vehicle, main service
// name and booked additional services; ErrNotFound if the reservation does not exist.
func (tx OutboxTx) NotificationSubject(ctx context.Context, reservationID int64) (NotificationSubject, error) {
	var sub NotificationSubject
	var err error
	if sub.Reservation, err = ReservationsTx(tx).Reservation(ctx, reservationID); err != nil {
		return sub, err
	}
	if sub.Customer, err = CustomersTx(tx).Customer(ctx, sub.Reservation.CustomerID); err != nil {
		return sub, fmt.Errorf("customer of reservation %d: %w", reservationID, err)
	}
	if sub.Vehicle, err = CustomersTx(tx).Vehicle(ctx, sub.Reservation.VehicleID); err != nil {
		return sub, err
	}
	err = tx.QueryRow(ctx, `SELECT name FROM main_service WHERE id_main_service = $1`, sub.Reservation.MainServiceID).
		Scan(&sub.MainServiceName)
	if err != nil {
		return sub, fmt.Errorf("main service %d: %w", sub.Reservation.MainServiceID, notFound(err))
	}
	if sub.Extras, err = ReservationsTx(tx).ReservationExtras(ctx, reservationID); err != nil {
		return sub, err
	}
	err = tx.QueryRow(ctx, `SELECT number FROM receipt WHERE id_reservation = $1 ORDER BY chain_seq DESC LIMIT 1`, reservationID).
		Scan(&sub.ReceiptNumber)
	if err != nil && !noRows(err) {
		return sub, fmt.Errorf("receipt of reservation %d: %w", reservationID, err)
	}
	return sub, nil
}

// NewNotification is an outbox row about to be inserted.
type NewNotification struct {
	ReservationID int64
	Type          string
	DeliveryID    string
	Payload       []byte
	Status        string    // pending, or skipped when it will never be sent
	LastError     *string   // why a skipped row is skipped
	DueAt         time.Time // when it is to be sent; zero: at once (a reminder is due later)
}

// dueAndReservation are the row's due time (now when none is set) and its
// reservation column (NULL for a notification about no reservation).
func (n NewNotification) dueAndReservation(now time.Time) (time.Time, *int64) {
	due := now
	if !n.DueAt.IsZero() {
		due = Time(n.DueAt)
	}
	if n.ReservationID == 0 {
		return due, nil
	}
	return due, &n.ReservationID
}

// InsertNotification adds an outbox row, due at n.DueAt (zero: at once), created at
// the transaction's clock. ReservationID 0 is a notification about no reservation
// (a password reset).
func (tx OutboxTx) InsertNotification(ctx context.Context, n NewNotification) (int64, error) {
	var id int64
	due, resID := n.dueAndReservation(tx.Now)
	err := tx.QueryRow(ctx, `INSERT INTO notification
		(id_reservation, type, delivery_id, payload, status, attempts, next_attempt_at, created_at, last_error)
		VALUES ($1, $2, $3, $4, $5, 0, $6, $8, $7)
		RETURNING id`,
		resID, n.Type, n.DeliveryID, string(n.Payload), n.Status, due, n.LastError, tx.Now).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("insert %s notification for reservation %d: %w", n.Type, n.ReservationID, err)
	}
	return id, nil
}

// Notification is a stored outbox row without its payload.
type Notification struct {
	ID            int64
	ReservationID int64
	Type          string
	DeliveryID    string
	Status        string
	Attempts      int
	NextAttemptAt time.Time
	LockedUntil   *time.Time
	CreatedAt     time.Time
	SentAt        *time.Time
	LastError     *string
}

const notificationColumns = `id, COALESCE(id_reservation, 0), type, delivery_id, status, attempts,
	next_attempt_at, locked_until, created_at, sent_at, last_error`

func scanNotification(row rowScanner) (Notification, error) {
	var n Notification
	var locked, sent sql.NullTime
	var lastErr sql.NullString
	if err := row.Scan(&n.ID, &n.ReservationID, &n.Type, &n.DeliveryID, &n.Status, &n.Attempts,
		&n.NextAttemptAt, &locked, &n.CreatedAt, &sent, &lastErr); err != nil {
		return n, err
	}
	n.NextAttemptAt = n.NextAttemptAt.UTC()
	n.CreatedAt = n.CreatedAt.UTC()
	if locked.Valid {
		t := locked.Time.UTC()
		n.LockedUntil = &t
	}
	if sent.Valid {
		t := sent.Time.UTC()
		n.SentAt = &t
	}
	if lastErr.Valid {
		n.LastError = &lastErr.String
	}
	return n, nil
}

func queryNotifications(ctx context.Context, q database.Runner, query string, args ...any) ([]Notification, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return scanNotifications(rows)
}

func scanNotifications(rows *sql.Rows) ([]Notification, error) {
	out := []Notification{}
	for rows.Next() {
		n, err := scanNotification(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, n)
	}
	return out, closeRows(rows)
}

// NotificationHistory lists a reservation's notifications, oldest first.
func (s Outbox) NotificationHistory(ctx context.Context, reservationID int64) ([]Notification, error) {
	rows, err := s.Query(ctx, `SELECT `+notificationColumns+` FROM notification
		WHERE id_reservation = $1 ORDER BY created_at, id`, reservationID)
	if err != nil {
		return nil, fmt.Errorf("notification history of reservation %d: %w", reservationID, err)
	}
	out, err := scanNotifications(rows)
	if err != nil {
		return nil, fmt.Errorf("notification history of reservation %d: %w", reservationID, err)
	}
	return out, nil
}

// NotificationFilter narrows ListNotifications; zero values do not filter.
type NotificationFilter struct {
	Status        string
	ReservationID int64
	Limit         int // default 100
}

// ListNotifications lists outbox rows, newest first, for operators.
func (s Outbox) ListNotifications(ctx context.Context, f NotificationFilter) ([]Notification, error) {
	var where []string
	var args []any
	if f.Status != "" {
		args = append(args, f.Status)
		where = append(where, fmt.Sprintf("status = $%d", len(args)))
	}
	if f.ReservationID != 0 {
		args = append(args, f.ReservationID)
		where = append(where, fmt.Sprintf("id_reservation = $%d", len(args)))
	}
	if f.Limit <= 0 {
		f.Limit = 100
	}
	args = append(args, f.Limit)
	q := `SELECT ` + notificationColumns + ` FROM notification`
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, " AND ")
	}
	q += fmt.Sprintf(` ORDER BY created_at DESC, id DESC LIMIT $%d`, len(args))
	out, err := queryNotifications(ctx, s.Generated(), q, args...)
	if err != nil {
		return nil, fmt.Errorf("list notifications: %w", err)
	}
	return out, nil
}

// Notification reads one outbox row inside the transaction; ErrNotFound if none.
func (tx OutboxTx) Notification(ctx context.Context, id int64) (Notification, error) {
	n, err := scanNotification(tx.QueryRow(ctx, `SELECT `+notificationColumns+` FROM notification WHERE id = $1`, id))
	if err != nil {
		return n, fmt.Errorf("notification %d: %w", id, notFound(err))
	}
	return n, nil
}

// NotificationPayload reads the stored body of one outbox row inside the transaction.
func (tx OutboxTx) NotificationPayload(ctx context.Context, id int64) ([]byte, error) {
	var p string
	if err := tx.QueryRow(ctx, `SELECT payload FROM notification WHERE id = $1`, id).Scan(&p); err != nil {
		return nil, fmt.Errorf("notification %d payload: %w", id, notFound(err))
	}
	return []byte(p), nil
}

// RequeueNotification makes a failed or skipped row pending and due now, keeping
// its attempts count and delivery id. It reports false when the row is in another
// status (pending rows are already queued; sent rows were delivered).
func (tx OutboxTx) RequeueNotification(ctx context.Context, id int64) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE notification
		SET status = 'pending', next_attempt_at = $2, locked_until = NULL, lease_token = NULL
		WHERE id = $1 AND status IN ('failed', 'skipped')`, id, tx.Now)
	if err != nil {
		return false, fmt.Errorf("requeue notification %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// RequeueFailedNotifications makes every failed row pending and due now.
func (tx OutboxTx) RequeueFailedNotifications(ctx context.Context) (int64, error) {
	res, err := tx.Exec(ctx, `UPDATE notification
		SET status = 'pending', next_attempt_at = $1, locked_until = NULL, lease_token = NULL
		WHERE status = 'failed'`, tx.Now)
	if err != nil {
		return 0, fmt.Errorf("requeue failed notifications: %w", err)
	}
	return res.RowsAffected()
}

// ClaimedNotification is a due row leased to one dispatcher.
type ClaimedNotification struct {
	ID            int64
	ReservationID int64
	Type          string
	DeliveryID    string
	Payload       []byte
	Attempts      int // attempts recorded before this one
	LeaseToken    string
	LockedUntil   time.Time
}

// ClaimNotifications leases up to limit due pending rows (oldest due first) to the
// caller until now+lease, under token. A row is due when its next attempt time has
// come and no live lease holds it; an expired lease (a dispatcher that died) is
// taken over.
//
// PostgreSQL: FOR UPDATE SKIP LOCKED lets several instances claim at once without
// waiting for each other or claiming the same row; once the claiming transaction
// commits, the lease keeps the row out of everyone else's claims while it is sent.
// SQLite has one writer, so the UPDATE in the write transaction is already exclusive.
func (s Outbox) ClaimNotifications(ctx context.Context, now time.Time, lease time.Duration, token string, limit int) ([]ClaimedNotification, error) {
	now = Time(now)
	until := Time(now.Add(lease))
	lock := ""
	if s.Dialect() == Postgres {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	q := `UPDATE notification SET locked_until = $1, lease_token = $2
		WHERE id IN (
			SELECT id FROM notification
			WHERE status = 'pending' AND next_attempt_at <= $3 AND (locked_until IS NULL OR locked_until <= $3)
			ORDER BY next_attempt_at, id
			LIMIT $4` + lock + `)
		RETURNING id, COALESCE(id_reservation, 0), type, delivery_id, payload, attempts`
	var out []ClaimedNotification
	err := inTx(ctx, s.Engine, func(tx *Tx) error {
		rows, err := tx.Query(ctx, q, until, token, now, limit)
		if err != nil {
			return err
		}
		for rows.Next() {
			c := ClaimedNotification{LeaseToken: token, LockedUntil: until}
			var payload string
			if err := rows.Scan(&c.ID, &c.ReservationID, &c.Type, &c.DeliveryID, &payload, &c.Attempts); err != nil {
				rows.Close()
				return err
			}
			c.Payload = []byte(payload)
			out = append(out, c)
		}
		return closeRows(rows)
	})
	if err != nil {
		return nil, fmt.Errorf("claim notifications: %w", err)
	}
	// RETURNING does not promise an order; deliver oldest first.
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// OutcomeKind is what happened to a claimed row.
type OutcomeKind int

const (
	// Delivered: the receiver accepted it; the row is sent.
	Delivered OutcomeKind = iota + 1
	// RetryLater: a transient failure; the row stays pending until NextAttempt.
	RetryLater
	// GaveUp: a final failure; the row is failed.
	GaveUp
	// Released: not attempted (shutdown); the lease is dropped and no attempt counted.
	Released
)

// DeliveryOutcome is the result of one claimed row.
type DeliveryOutcome struct {
	ID          int64
	LeaseToken  string
	Kind        OutcomeKind
	At          time.Time // when the attempt ended
	NextAttempt time.Time // RetryLater only
	Error       string    // RetryLater and GaveUp
}

// ErrLeaseLost reports outcomes that were not recorded because the row's lease had
// passed to another dispatcher (or an operator changed the row) in the meantime.
var ErrLeaseLost = errors.New("lease lost")

// RecordDeliveries records a batch of outcomes in one transaction (one commit for
// many rows keeps the dispatcher fast; deliveries, the common case, are one
// statement per claim). Each update only applies while the caller's lease token is
// still on the row; the ids of outcomes that did not apply are returned in lost.
func (s Outbox) RecordDeliveries(ctx context.Context, outcomes []DeliveryOutcome) (lost []int64, err error) {
	err = inTx(ctx, s.Engine, func(tx *Tx) error {
		lost = lost[:0]
		// Deliveries grouped by claim: one UPDATE … WHERE id IN (…) each.
		delivered := map[string][]DeliveryOutcome{}
		var tokens []string
		for _, o := range outcomes {
			if o.Kind != Delivered {
				continue
			}
			if _, ok := delivered[o.LeaseToken]; !ok {
				tokens = append(tokens, o.LeaseToken)
			}
			delivered[o.LeaseToken] = append(delivered[o.LeaseToken], o)
		}
		for _, tok := range tokens {
			missing, err := tx.Outbox().markSent(ctx, tok, delivered[tok])
			if err != nil {
				return err
			}
			lost = append(lost, missing...)
		}
		for _, o := range outcomes {
			var res sql.Result
			var err error
			switch o.Kind {
			case Delivered:
				continue
			case RetryLater:
				res, err = tx.Exec(ctx, `UPDATE notification
					SET attempts = attempts + 1, next_attempt_at = $3, last_error = $4, locked_until = NULL, lease_token = NULL
					WHERE id = $1 AND lease_token = $2 AND status = 'pending'`, o.ID, o.LeaseToken, Time(o.NextAttempt), o.Error)
			case GaveUp:
				res, err = tx.Exec(ctx, `UPDATE notification
					SET status = 'failed', attempts = attempts + 1, last_error = $3, locked_until = NULL, lease_token = NULL
					WHERE id = $1 AND lease_token = $2 AND status = 'pending'`, o.ID, o.LeaseToken, o.Error)
			case Released:
				res, err = tx.Exec(ctx, `UPDATE notification
					SET locked_until = NULL, lease_token = NULL
					WHERE id = $1 AND lease_token = $2`, o.ID, o.LeaseToken)
			default:
				return fmt.Errorf("notification %d: unknown outcome %d", o.ID, o.Kind)
			}
			if err != nil {
				return fmt.Errorf("record notification %d: %w", o.ID, err)
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 0 {
				lost = append(lost, o.ID)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("record deliveries: %w", err)
	}
	return lost, nil
}

// markSent records the deliveries of one claim in one statement; sent_at is the
// latest end among them (they finished within the same moment). It returns the ids
// that were not updated.
func (tx OutboxTx) markSent(ctx context.Context, token string, os []DeliveryOutcome) ([]int64, error) {
	at := os[0].At
	args := []any{token, nil}
	marks := make([]string, len(os))
	for i, o := range os {
		if o.At.After(at) {
			at = o.At
		}
		args = append(args, o.ID)
		marks[i] = fmt.Sprintf("$%d", i+3)
	}
	args[1] = Time(at)
	// The id list varies in length: run unprepared, keeping it out of the statement cache.
	rows, err := tx.Query(ctx, `UPDATE notification
		SET status = 'sent', attempts = attempts + 1, sent_at = $2, locked_until = NULL, lease_token = NULL
		WHERE lease_token = $1 AND status = 'pending' AND id IN (`+strings.Join(marks, ", ")+`)
		RETURNING id`, args...)
	if err != nil {
		return nil, fmt.Errorf("record deliveries: %w", err)
	}
	done := make(map[int64]bool, len(os))
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		done[id] = true
	}
	if err := closeRows(rows); err != nil {
		return nil, err
	}
	var missing []int64
	for _, o := range os {
		if !done[o.ID] {
			missing = append(missing, o.ID)
		}
	}
	return missing, nil
}

// NotificationBacklog is the outbox's queue for the metrics: the rows waiting to
// be delivered (pending, retries included), and since when the oldest of them has
// waited. A booking reminder is scheduled days ahead: it counts once due (or once
// tried), and waits from its due time, not from the booking that scheduled it; the
// others wait from their creation.
func (s Outbox) NotificationBacklog(ctx context.Context) (pending int64, oldest time.Time, err error) {
	now := Time(s.Clock()())
	if err = s.QueryRow(ctx, `SELECT COUNT(*) FROM notification WHERE status = 'pending'
		AND (type <> 'booking_reminder' OR next_attempt_at <= $1 OR attempts > 0)`, now).Scan(&pending); err != nil {
		return 0, time.Time{}, fmt.Errorf("notification backlog: %w", err)
	}
	if pending == 0 {
		return 0, time.Time{}, nil
	}
	for _, q := range []string{
		`SELECT created_at FROM notification WHERE status = 'pending' AND type <> 'booking_reminder' AND created_at <= $1
			ORDER BY created_at LIMIT 1`,
		`SELECT next_attempt_at FROM notification WHERE status = 'pending' AND next_attempt_at <= $1 AND type = 'booking_reminder'
			ORDER BY next_attempt_at LIMIT 1`,
	} {
		var since time.Time
		err = s.Generated().QueryRow(ctx, q, now).Scan(&since)
		if noRows(err) { // none of this kind, or delivered in between
			continue
		}
		if err != nil {
			return 0, time.Time{}, fmt.Errorf("notification backlog: %w", err)
		}
		if oldest.IsZero() || since.Before(oldest) {
			oldest = since
		}
	}
	return pending, oldest, nil
}
