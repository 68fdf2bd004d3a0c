// Package notify delivers the service's notifications (docs/notifications.md#events)
// through a transactional outbox: an operation enqueues a row with the payload inside
// its own transaction (Outbox.Enqueue), and a Dispatcher posts committed rows to the
// webhook, retrying with backoff, and records each outcome on the row. The rows are
// also the reservation's notification history. A rolled-back change leaves no row;
// a committed one is delivered even if the process dies right after the commit.
package notify

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"parking/internal/managelink"
	"parking/internal/store"
)

// Reasons recorded in last_error on rows that are never sent.
const (
	ReasonNoEmail   = "La reserva no tiene correo electrónico de contacto: no se envía."
	ReasonNoWebhook = "Webhook no configurado (PARKING_WEBHOOK_URL): registrada, no enviada."
	// ReasonResetNotSent marks the row of a password reset request that sends
	// nothing: no account with its own password has the email, or it already got
	// three links in the last hour (docs/security.md#password-reset).
	ReasonResetNotSent = "Solicitud de restablecimiento sin envío: ninguna cuenta con contraseña tiene ese correo, o ya recibió tres enlaces en la última hora."
)

// Outbox writes notification rows inside the triggering transaction and wakes the
// local dispatcher after the commit.
type Outbox struct {
	loc      *time.Location
	baseURL  string // PARKING_BASE_URL, the start of links in payloads
	deliver  bool
	wake     chan struct{}
	links    *managelink.Signer // manage_url in payloads (docs/manage-booking.md#the-token); nil: none
	facility FacilitySource     // the reminder's facility; nil: empty fields
	// facilityCopy reads the facility without a transaction, from a copy kept in
	// memory (BookingFacility); nil: only facility, in the transaction.
	facilityCopy func(ctx context.Context) (FacilityData, error)
	sealer       *Sealer // seals payload values that carry a secret (seal.go)
}

// FacilitySource reads the car park's name, address and phone (the settings) inside
// the transaction that builds a reminder.
type FacilitySource func(ctx context.Context, tx *store.Tx) (FacilityData, error)

// SetManageLinks makes the payloads carry manage_url, signed by signer
// (docs/manage-booking.md). Call it before the outbox is used.
func (o *Outbox) SetManageLinks(signer *managelink.Signer) { o.links = signer }

// SetSealer sets the key secret payload values are sealed with (the service's
// secret key); the dispatcher must open them with the same (Dispatcher.SetSealer).
// Call it before the outbox is used. Without it, a key of this process's own is
// used: nothing is ever stored readable, but only this process can send it.
func (o *Outbox) SetSealer(s *Sealer) { o.sealer = s }

// Sealer is the outbox's sealer, for the dispatcher that opens what it seals.
func (o *Outbox) Sealer() *Sealer { return o.sealer }

// Seal seals a payload value that carries a secret (a link with a token): the row
// keeps {"sealed":"v1.…"}, the webhook gets the plain string (seal.go).
func (o *Outbox) Seal(plain string) Sealed { return o.sealer.Seal(plain) }

// SetFacility sets where the reminder reads the facility from. Call it before the
// outbox is used.
func (o *Outbox) SetFacility(f FacilitySource) { o.facility = f }

// SetFacilityCopy sets where a new booking's reminder reads the facility from before
// the booking's transaction (BookingFacility): an in-memory copy of the settings,
// which must not wait for a connection while a transaction holds one. Call it
// before the outbox is used; it has no effect without SetFacility.
func (o *Outbox) SetFacilityCopy(f func(ctx context.Context) (FacilityData, error)) {
	o.facilityCopy = f
}

// NewOutbox builds the outbox. loc is the facility's time zone (dates in payloads);
// deliver says whether a webhook is configured: without one, rows are recorded with
// status skipped and the reason, so the history says they were not sent
// (docs/notifications.md#without-a-webhook: "recorded but not sent"), and no stale backlog floods a webhook
// configured later.
func NewOutbox(loc *time.Location, deliver bool) *Outbox {
	var key [32]byte
	_, _ = rand.Read(key[:]) // crypto/rand.Read never fails (Go 1.24+)
	return &Outbox{loc: loc, deliver: deliver, wake: make(chan struct{}, 1), sealer: NewSealer(key[:])}
}

// WithBaseURL sets the service's public address (PARKING_BASE_URL) that links in
// payloads start with (the invoice's receipt_url); without it they are paths.
func (o *Outbox) WithBaseURL(u string) *Outbox {
	o.baseURL = u
	return o
}

// Location is the zone the payloads' dates are written in.
func (o *Outbox) Location() *time.Location { return o.loc }

// Options carries what some kinds need besides the reservation.
type Options struct {
	// Original is the reservation before the change, taken with Capture earlier in
	// the same transaction; required for reservation_modified.
	Original *Original
	// DueAt is when the row is to be sent (zero: at once); a reminder is due later.
	DueAt time.Time
	// Facility is the reminder's car park as the caller read it before its
	// transaction (ReminderFacility); nil: read from the facility source in the
	// transaction. Unused when the outbox has no facility source.
	Facility *FacilityData
}

// Original is a snapshot of a reservation taken before it is modified.
type Original struct{ sub store.NotificationSubject }

// Capture snapshots the reservation as it stands in tx, before a modification, for
// the "original" object of reservation_modified.
func (o *Outbox) Capture(ctx context.Context, tx *store.Tx, reservationID int64) (*Original, error) {
	sub, err := tx.Outbox().NotificationSubject(ctx, reservationID)
	if err != nil {
		return nil, fmt.Errorf("capture reservation %d for notification: %w", reservationID, err)
	}
	return &Original{sub: sub}, nil
}

// Enqueue records one notification of kind about the reservation, inside tx, with
// its payload built from what tx sees (the change being committed). Call it once
// per trigger, inside the triggering transaction. A recipient (the reservation's
// contact, or its customer) without an email gets a row with status skipped
// (docs/notifications.md#delivery). It returns the row id.
func (o *Outbox) Enqueue(ctx context.Context, tx *store.Tx, kind Kind, reservationID int64, opts Options) (int64, error) {
	if !kind.Valid() {
		return 0, fmt.Errorf("enqueue: unknown notification type %q", kind)
	}
	if kind == ReservationModified && opts.Original == nil {
		return 0, errors.New("enqueue reservation_modified: Options.Original is required (take it with Capture before the change)")
	}
	sub, err := tx.Outbox().NotificationSubject(ctx, reservationID)
	if err != nil {
		return 0, fmt.Errorf("enqueue %s: %w", kind, err)
	}
	return o.EnqueueSubject(ctx, tx, kind, sub, opts)
}

// EnqueueSubject is Enqueue for a caller that already holds everything the payload
// is built from, exactly as it is being committed (a booking that has just inserted
// the reservation): it saves re-reading five tables on the busiest path.
func (o *Outbox) EnqueueSubject(ctx context.Context, tx *store.Tx, kind Kind, sub store.NotificationSubject, opts Options) (int64, error) {
	n, err := o.row(ctx, tx, kind, sub, opts)
	if err != nil {
		return 0, err
	}
	id, err := tx.Outbox().InsertNotification(ctx, n)
	if err != nil {
		return 0, err
	}
	if n.Status == store.NotificationPending {
		tx.AfterCommit(o.Nudge)
	}
	return id, nil
}

// row builds the outbox row of one notification of kind about sub, as EnqueueSubject
// inserts it: its payload, and skipped with the reason when it will never be sent.
func (o *Outbox) row(ctx context.Context, tx *store.Tx, kind Kind, sub store.NotificationSubject, opts Options) (store.NewNotification, error) {
	if !kind.Valid() {
		return store.NewNotification{}, fmt.Errorf("enqueue: unknown notification type %q", kind)
	}
	if kind == ReservationModified && opts.Original == nil {
		return store.NewNotification{}, errors.New("enqueue reservation_modified: Options.Original is required (take it with Capture before the change)")
	}
	reservationID := sub.Reservation.ID
	var original *store.NotificationSubject
	if opts.Original != nil {
		original = &opts.Original.sub
	}
	body, err := o.build(ctx, tx, kind, sub, original, opts.Facility)
	if err != nil {
		return store.NewNotification{}, err
	}
	n := store.NewNotification{
		ReservationID: reservationID, Type: string(kind), DeliveryID: newDeliveryID(),
		Payload: body, Status: store.NotificationPending, DueAt: opts.DueAt,
	}
	switch {
	case !hasEmail(sub):
		n.Status, n.LastError = store.NotificationSkipped, ptr(ReasonNoEmail)
	case !o.deliver:
		n.Status, n.LastError = store.NotificationSkipped, ptr(ReasonNoWebhook)
	}
	return n, nil
}

// Nudge wakes the dispatcher without waiting: a pending wake-up already covers
// every row committed before it is taken, so extra nudges are dropped.
func (o *Outbox) Nudge() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// Wake is the channel the local dispatcher listens on.
func (o *Outbox) Wake() <-chan struct{} { return o.wake }

// newDeliveryID is a time-ordered UUID (version 7, RFC 9562: the time in
// milliseconds, then 74 random bits): the X-Parking-Delivery header, stored on the
// row so that every retry carries the same one (receivers deduplicate by it). Time
// first, a new id goes to the end of the column's unique index, as the ids of the
// same commit do: a random one (version 4) landed on a page of its own, and every
// commit of a busy booking flow wrote most of that index's pages again
// (docs/performance.md).
func newDeliveryID() string {
	var b [16]byte
	_, _ = rand.Read(b[6:]) // crypto/rand.Read never fails (Go 1.24+)
	ms := uint64(time.Now().UnixMilli())
	for i := 5; i >= 0; i-- {
		b[i] = byte(ms)
		ms >>= 8
	}
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

func ptr[T any](v T) *T { return &v }
