package notify

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"parking/internal/reservation"
	"parking/internal/store"
)

// ReminderLead is how long before the entry the booking_reminder is due (docs/manage-booking.md#the-reminder-the-day-before-booking_reminder).
const ReminderLead = 24 * time.Hour

// Reasons recorded on reminders dropped before they were due (status cancelled).
const (
	ReasonReminderCancelled = "La reserva se canceló antes del recordatorio."
	ReasonReminderStarted   = "El vehículo entró antes del recordatorio."
	ReasonReminderTooLate   = "La nueva entrada está a menos de 24 horas: no hay recordatorio."
)

// build renders a payload with what the outbox adds to some kinds: the manage link
// (confirmation, modification, reminder), the facility (confirmation, reminder) and the entry
// document's link (vehicle entry).
// facility, when not nil, is the facility read before the transaction (Options.Facility).
func (o *Outbox) build(ctx context.Context, tx *store.Tx, kind Kind, sub store.NotificationSubject, original *store.NotificationSubject, facility *FacilityData) ([]byte, error) {
	var extra Extra
	if o.links != nil && sub.Reservation.Reference != "" && (kind == BookingConfirmation || kind == ReservationModified || kind == BookingReminder) {
		_, extra.ManageURL = o.links.Link(reservation.ShowReference(sub.Reservation.Reference), sub.Reservation.Entry, sub.Reservation.Exit, tx.Now)
	}
	if o.links != nil && sub.Reservation.Reference != "" && kind == VehicleEntry {
		extra.JustificanteURL = o.links.EntryDocumentURL(reservation.ShowReference(sub.Reservation.Reference), sub.Reservation.Entry, sub.Reservation.Exit, tx.Now)
	}
	arrives := kind == BookingReminder || kind == BookingConfirmation
	switch {
	case arrives && o.facility != nil && facility != nil:
		f := *facility
		extra.Facility = &f
	case arrives && o.facility != nil:
		f, err := o.facility(ctx, tx)
		if err != nil {
			return nil, fmt.Errorf("facility for the reminder: %w", err)
		}
		extra.Facility = &f
	}
	return build(kind, sub, original, tx.Now, o.loc, o.baseURL, extra)
}

// SyncReminder makes the reservation's booking_reminder agree with the reservation
// as tx sees it (docs/manage-booking.md#the-reminder-the-day-before-booking_reminder), inside the transaction of the change:
//   - PENDIENTE with the entry more than 24 hours after tx.Now: the pending reminder
//     is moved to entry − 24 h with a fresh payload, or one is scheduled;
//   - PENDIENTE with the entry less than 24 hours away: a booking made now gets
//     none, and a pending one (the entry was moved closer) is dropped;
//   - any other status (started, cancelled, finished): a pending one is dropped.
//
// Dropped rows keep their history with status cancelled and the reason.
func (o *Outbox) SyncReminder(ctx context.Context, tx *store.Tx, sub store.NotificationSubject) error {
	id := sub.Reservation.ID
	switch sub.Reservation.Status {
	case reservation.Pending:
	case reservation.Cancelled:
		_, err := tx.Outbox().CancelPendingReminder(ctx, id, ReasonReminderCancelled)
		return err
	default:
		_, err := tx.Outbox().CancelPendingReminder(ctx, id, ReasonReminderStarted)
		return err
	}
	due := sub.Reservation.Entry.Add(-ReminderLead)
	if !due.After(tx.Now) {
		_, err := tx.Outbox().CancelPendingReminder(ctx, id, ReasonReminderTooLate)
		return err
	}
	body, err := o.build(ctx, tx, BookingReminder, sub, nil, nil)
	if err != nil {
		return err
	}
	moved, err := tx.Outbox().MovePendingReminder(ctx, id, body, due)
	if err != nil || moved {
		return err
	}
	_, err = o.EnqueueSubject(ctx, tx, BookingReminder, sub, Options{DueAt: due})
	return err
}

// ScheduleReminder is SyncReminder for a reservation its transaction has just
// inserted (nothing to move or drop yet): one insert when the entry is more than 24
// hours away, no statement at all otherwise, so the booking path pays nothing more.
func (o *Outbox) ScheduleReminder(ctx context.Context, tx *store.Tx, sub store.NotificationSubject) error {
	due := sub.Reservation.Entry.Add(-ReminderLead)
	if sub.Reservation.Status != reservation.Pending || !due.After(tx.Now) {
		return nil
	}
	_, err := o.EnqueueSubject(ctx, tx, BookingReminder, sub, Options{DueAt: due})
	return err
}

// EnqueueBooked records a new booking's confirmation and, by ScheduleReminder's rule,
// its reminder, in one insert: the rows ScheduleReminder and EnqueueSubject would
// write, one round trip fewer on the busiest transaction (docs/performance.md).
// opts.Facility, when set, is the reminder's car park read before the transaction.
func (o *Outbox) EnqueueBooked(ctx context.Context, tx *store.Tx, sub store.NotificationSubject, opts Options) error {
	rows := make([]store.NewNotification, 0, 2)
	n, err := o.row(ctx, tx, BookingConfirmation, sub, Options{Facility: opts.Facility})
	if err != nil {
		return err
	}
	rows = append(rows, n)
	due := sub.Reservation.Entry.Add(-ReminderLead)
	if sub.Reservation.Status == reservation.Pending && due.After(tx.Now) {
		// The reminder's payload is the confirmation's but for its type (build): taken
		// from it rather than built again in the writer's transaction.
		if r, ok := reminderOf(n, due); ok {
			rows = append(rows, r)
		} else {
			if n, err = o.row(ctx, tx, BookingReminder, sub, Options{DueAt: due, Facility: opts.Facility}); err != nil {
				return fmt.Errorf("schedule booking_reminder for reservation %d: %w", sub.Reservation.ID, err)
			}
			rows = append(rows, n)
		}
	}
	if err := tx.Outbox().InsertNotifications(ctx, rows); err != nil {
		return err
	}
	for _, n := range rows {
		if n.Status == store.NotificationPending {
			tx.AfterCommit(o.Nudge)
			break
		}
	}
	return nil
}

// EnqueuePasswordReset records the password_reset notification of a reset request
// (docs/security.md#password-reset), its reset_url sealed (Outbox.Seal). send false
// is a request that sends nothing (no such account, or too many links): the row is
// written all the same, without the recipient, skipped with ReasonResetNotSent, so
// that both requests do the same work.
// lang is the account's language (idioma; "" is Spanish).
func (o *Outbox) EnqueuePasswordReset(ctx context.Context, tx *store.Tx, name, email, lang, resetURL string, send bool) error {
	if !send {
		name, email, lang = "", "", ""
	}
	data := PasswordResetData{Type: PasswordReset, Idioma: Idioma(lang), Cliente: ResetCliente{Nombre: name, Email: email}, ResetURL: o.Seal(resetURL)}
	reason := ""
	if !send {
		reason = ReasonResetNotSent
	}
	return o.enqueueAccount(ctx, tx, PasswordReset, data, reason)
}

// EnqueueEmailVerification records an email_verification notification for the
// account name/email inside tx, its verify_url sealed (Outbox.Seal): the link is a
// credential, opened only by the dispatcher (docs/notifications.md#sealed-fields).
// lang is the account's language (idioma; "" is Spanish).
func (o *Outbox) EnqueueEmailVerification(ctx context.Context, tx *store.Tx, name, email, lang, verifyURL string) error {
	return o.enqueueAccount(ctx, tx, EmailVerification, EmailVerificationData{Type: EmailVerification, Idioma: Idioma(lang),
		Cliente: ResetCliente{Nombre: name, Email: email}, VerifyURL: o.Seal(verifyURL)}, "")
}

// enqueueAccount records a notification about an account (no reservation) with
// body v; skipReason, when set, records it skipped with that reason.
func (o *Outbox) enqueueAccount(ctx context.Context, tx *store.Tx, kind Kind, v any, skipReason string) error {
	body, err := encode(kind, v)
	if err != nil {
		return err
	}
	n := store.NewNotification{Type: string(kind), DeliveryID: newDeliveryID(), Payload: body, Status: store.NotificationPending}
	switch {
	case skipReason != "":
		n.Status, n.LastError = store.NotificationSkipped, ptr(skipReason)
	case !o.deliver:
		n.Status, n.LastError = store.NotificationSkipped, ptr(ReasonNoWebhook)
	}
	if _, err := tx.Outbox().InsertNotification(ctx, n); err != nil {
		return err
	}
	if n.Status == store.NotificationPending {
		tx.AfterCommit(o.Nudge)
	}
	return nil
}

// BookingFacility is the car park a new booking's confirmation and reminder name,
// read before the booking's transaction (for EnqueueBooked's Options.Facility) from
// the copy SetFacilityCopy gives; nil when there is no copy (the notifications read
// the facility in the transaction).
func (o *Outbox) BookingFacility(ctx context.Context) (*FacilityData, error) {
	if o.facility == nil || o.facilityCopy == nil {
		return nil, nil
	}
	f, err := o.facilityCopy(ctx)
	if err != nil {
		return nil, fmt.Errorf("facility for the reminder: %w", err)
	}
	return &f, nil
}

// reminderOf is the booking_reminder row of a booking whose booking_confirmation row
// is c, due at due: the same payload with the reminder's type, status and reason,
// and a delivery id of its own. False when c's payload does not start with its type
// as build writes it (the caller builds the reminder then).
func reminderOf(c store.NewNotification, due time.Time) (store.NewNotification, bool) {
	from, to := []byte(`{"type":"`+string(BookingConfirmation)+`"`), []byte(`{"type":"`+string(BookingReminder)+`"`)
	if !bytes.HasPrefix(c.Payload, from) {
		return c, false
	}
	r := c
	r.Type, r.DeliveryID, r.DueAt = string(BookingReminder), newDeliveryID(), due
	r.Payload = append(to, c.Payload[len(from):]...)
	return r, true
}
