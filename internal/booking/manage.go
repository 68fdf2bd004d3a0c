package booking

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"parking/internal/account"
	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/feed"
	"parking/internal/input"
	"parking/internal/managelink"
	"parking/internal/pricing"
	"parking/internal/records"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Managing a booking without an account (docs/manage-booking.md#booking-reference): the booking reference plus
// the phone or email it was made with gives a signed token (managelink); the token
// opens, cancels and edits that one booking. Edits go through the customer edit
// (customerEdit), so its rules, price path and refusals are the same.

// WithManageLinks sets the signer of manage tokens and links.
func WithManageLinks(s *managelink.Signer) Option { return func(svc *Service) { svc.links = s } }

// ErrNoBooking is the one answer to a lookup that does not match and to a bad or
// expired token: the same whether or not the reference exists (docs/manage-booking.md#the-token).
var ErrNoBooking = fault.Coded(fault.NotFound, "err.booking.no_booking")

// Lookup throttling: failed lookups are counted per reference (whether or not it
// exists) and per client address in the login failures table (shared by every
// instance); past the limit within the window, further lookups are refused (429)
// until the oldest failure leaves the window. The per-minute limit on the route
// (PARKING_PUBLIC_RATE, docs/public-booking.md#limits-on-anonymous-traffic) applies on top.
const (
	lookupWindow           = time.Hour
	lookupLimitPerRef      = 5
	lookupLimitPerAddress  = 30
	manageLookupKeyRef     = "lookup-reference:"
	manageLookupKeyAddress = "lookup-address:"
)

// LookupRequest is a lookup as typed: the reference and the phone or the email.
type LookupRequest struct {
	Reference string
	Phone     string
	Email     string
	Addr      string // the client's address (throttling); "" skips the per-address count
}

// Managed is a booking opened with its reference: the full record (Detail, without
// photos or notification history) and its manage token and link.
type Managed struct {
	records.Detail
	Token string
	URL   string
}

// Lookup finds the booking of a reference and a phone or email (docs/manage-booking.md#the-lookup-and-guessing). Any
// mismatch is ErrNoBooking; a malformed reference, phone or email is a 400; too many
// failures a fault.TooMany.
func (s *Service) Lookup(ctx context.Context, in LookupRequest) (Managed, error) {
	ref, err := input.Reference("reference", in.Reference)
	if err != nil {
		return Managed{}, err
	}
	var phone, email string
	switch {
	case strings.TrimSpace(in.Phone) != "":
		if phone, err = s.input.Phone("phone", in.Phone); err != nil {
			return Managed{}, err
		}
	case strings.TrimSpace(in.Email) != "":
		if email, err = input.Email("email", in.Email); err != nil {
			return Managed{}, err
		}
	default:
		return Managed{}, fault.Coded(fault.Invalid, "err.booking.lookup_contact")
	}
	var m Managed
	err = s.throttledLookup(ctx, ref, in.Addr, func() error {
		var err error
		m, err = s.lookup(ctx, ref, phone, email)
		return err
	})
	return m, err
}

// throttledLookup runs find, a lookup of reference ref by the client at addr ("":
// no per-address count), unless too many lookups of ref or from addr failed in the
// window (a fault.TooMany); an ErrNoBooking from find is counted as a failure.
func (s *Service) throttledLookup(ctx context.Context, ref, addr string, find func() error) error {
	now := s.now()
	keys := []string{lookupKey(manageLookupKeyRef + ref)}
	if addr != "" {
		keys = append(keys, lookupKey(manageLookupKeyAddress+addr))
	}
	failures, err := s.store.Accounts().ThrottleFailures(ctx, now.Add(-lookupWindow), keys...)
	if err != nil {
		return fmt.Errorf("lookup throttle: %w", err)
	}
	if wait := lookupWait(failures[keys[0]], lookupLimitPerRef, now); wait > 0 {
		return lookupThrottled(wait)
	}
	if len(keys) > 1 {
		if wait := lookupWait(failures[keys[1]], lookupLimitPerAddress, now); wait > 0 {
			return lookupThrottled(wait)
		}
	}
	err = find()
	if errors.Is(err, ErrNoBooking) {
		if rerr := s.store.InTx(ctx, func(tx *store.Tx) error {
			return tx.Accounts().RecordThrottleFailure(ctx, now, now.Add(-lookupWindow), keys...)
		}); rerr != nil {
			s.log.ErrorContext(ctx, "recording a failed booking lookup failed", "err", rerr)
		}
	}
	return err
}

func (s *Service) lookup(ctx context.Context, ref, phone, email string) (Managed, error) {
	r, err := s.store.Reservations().ReservationByReference(ctx, ref)
	if errors.Is(err, store.ErrNotFound) {
		return Managed{}, ErrNoBooking
	}
	if err != nil {
		return Managed{}, err
	}
	cust, err := s.store.Customers().Customer(ctx, r.CustomerID)
	if err != nil {
		return Managed{}, err
	}
	// The reservation's contact (docs/public-booking.md#privacy-of-anonymous-bookings: what the booker typed), or its
	// customer's data for a reservation made before contacts were kept. Phones are
	// compared in E.164, emails without regard to case.
	c := reservation.ContactOf(r, cust)
	match := (phone != "" && c.Phone != nil && *c.Phone == phone) ||
		(email != "" && c.Email != nil && strings.EqualFold(*c.Email, email))
	if !match {
		return Managed{}, ErrNoBooking
	}
	return s.managed(ctx, r.ID)
}

// managed reads the record of reservation id with a fresh token.
func (s *Service) managed(ctx context.Context, id int64) (Managed, error) {
	d, err := s.records.Detail(ctx, id)
	if err != nil {
		return Managed{}, err
	}
	d.Photos, d.Notifications = nil, nil // staff-only parts of the record
	m := Managed{Detail: d}
	if s.links != nil {
		m.Token, m.URL = s.links.Link(reservation.ShowReference(d.Reservation.Reference), d.Reservation.Entry, d.Reservation.Exit, s.now())
	}
	return m, nil
}

// manageID checks a reference and its token and returns the reservation's id; a
// malformed reference, a bad or expired token and an unknown reference are all
// ErrNoBooking.
func (s *Service) manageID(ctx context.Context, rawRef, token string) (int64, error) {
	ref, ok := input.ReferenceLookup(rawRef)
	if !ok || s.links == nil || !s.links.Valid(reservation.ShowReference(ref), token, s.now()) {
		return 0, ErrNoBooking
	}
	r, err := s.store.Reservations().ReservationByReference(ctx, ref)
	if errors.Is(err, store.ErrNotFound) {
		return 0, ErrNoBooking
	}
	if err != nil {
		return 0, err
	}
	return r.ID, nil
}

// ManagedBooking opens a booking with its reference and token.
func (s *Service) ManagedBooking(ctx context.Context, ref, token string) (Managed, error) {
	id, err := s.manageID(ctx, ref, token)
	if err != nil {
		return Managed{}, err
	}
	return s.managed(ctx, id)
}

// ManageCancel cancels a booking with its reference and token: PENDIENTE only
// (docs/reservations.md#transitions: the customer's cancel), spot cleared, reminder
// dropped, in one conditional update.
func (s *Service) ManageCancel(ctx context.Context, ref, token string) (reservation.Reservation, error) {
	ctx = audit.WithActor(ctx, audit.ActorOr(ctx, audit.ManageLink)) // the trail names the link, not "sistema"
	id, err := s.manageID(ctx, ref, token)
	if err != nil {
		return reservation.Reservation{}, err
	}
	return customerCancel(ctx, s, id, ref)
}

// customerCancel is the cancel of a booking by the one who holds it (the manage
// link, a partner): PENDIENTE only (docs/reservations.md#transitions), spot cleared,
// reminder dropped, in one conditional update. ref names it in errors.
func customerCancel(ctx context.Context, s *Service, id int64, ref string) (reservation.Reservation, error) {
	var out, before reservation.Reservation
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		r, err := tx.Reservations().LockReservation(ctx, id)
		if err != nil {
			return err
		}
		before = r
		prev, err := s.trail.readState(ctx, tx, id, false) // the audit trail's "before"
		if err != nil {
			return err
		}
		if !reservation.For(r.Status).Cancel {
			return fault.Coded(fault.Invalid, "err.booking.customer_cancel_status", "Status", r.Status.Word())
		}
		out, err = s.cancelLocked(ctx, tx, r, prev)
		return err
	})
	if err != nil {
		return reservation.Reservation{}, wrapOp(err, "cancel reservation %s", ref)
	}
	s.report.announceTransition(feed.Cancelled, out, before.Spot, reservation.Pending)
	return out, nil
}

// ManageEdit changes a booking's dates, main service and extras with its reference
// and token: the customer edit (customerEdit), so the same rules, price and
// refusals apply.
func (s *Service) ManageEdit(ctx context.Context, ref, token string, in CustomerEdit) (Edited, error) {
	ctx = audit.WithActor(ctx, audit.ActorOr(ctx, audit.ManageLink))
	id, err := s.manageID(ctx, ref, token)
	if err != nil {
		return Edited{}, err
	}
	return s.customerEdit(ctx, id, anyone, ErrNoBooking, in)
}

// ManageQuote prices a change as ManageEdit would charge it (the live preview).
func (s *Service) ManageQuote(ctx context.Context, ref, token string, r pricing.Request) (pricing.Quote, error) {
	id, err := s.manageID(ctx, ref, token)
	if err != nil {
		return pricing.Quote{}, err
	}
	return s.quoteEdit(ctx, id, true, anyone, ErrNoBooking, r)
}

// lookupKey is the stored throttling key: a hash, as the login's keys.
func lookupKey(k string) string { return account.HashToken(k) }

// lookupWait is how long until fewer than limit failures remain in the window.
func lookupWait(failures []time.Time, limit int, now time.Time) time.Duration {
	if len(failures) < limit {
		return 0
	}
	// failures are newest first: the limit-th newest must leave the window.
	return max(failures[limit-1].Add(lookupWindow).Sub(now), time.Second)
}

func lookupThrottled(wait time.Duration) error {
	mins := int((wait + time.Minute - 1) / time.Minute)
	// The login's cause type, so that the web layer sets Retry-After alike.
	return coded(fault.TooMany, &account.ThrottledError{RetryAfter: wait}, "err.booking.lookup_throttled", "Minutes", mins)
}

// ManageLink is the manage token and link of a reservation at now ("" without a
// signer or a reference): the public booking's answer carries it, so the
// confirmation page can offer "Gestionar mi reserva".
func (s *Service) ManageLink(r reservation.Reservation) (token, url string) {
	if s.links == nil || r.Reference == "" {
		return "", ""
	}
	return s.links.Link(reservation.ShowReference(r.Reference), r.Entry, r.Exit, s.now())
}
