package booking

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"parking/internal/account"
	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/input"
	"parking/internal/occupancy"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Partners are the sales channels that book through their own API
// (docs/partners.md). A partner booking is a public booking (Service.Create, the
// Public channel: the same rules, price, notifications and capacity) with a
// partner, its reference and its commission rate; reading, editing and cancelling
// one go through the manage-link operations with the partner's reference in place
// of the token.
type Partners struct{ s *Service }

// NewPartners is the partner operations of s.
func NewPartners(s *Service) *Partners { return &Partners{s: s} }

// ErrPartnerUnauthorized refuses a missing, unknown or revoked key, or a key of an
// inactive partner (401 {"error":"Unauthorized"}).
var ErrPartnerUnauthorized = errPartnerInactive

// errPartnerBooking is the one answer to a reference the calling partner has no
// booking under (another partner's included).
var errPartnerBooking = fault.Coded(fault.NotFound, "err.partner.no_booking")

// PartnerKeyPrefix starts every partner key.
const PartnerKeyPrefix = "pk_"

// partnerKeyTouch is how stale a key's "last used" may get before a request
// records it again (one write a minute per key at most).
const partnerKeyTouch = time.Minute

// PartnerInput is a partner as staff send it, before its rules are checked.
type PartnerInput struct {
	Name       string
	Commission string // the percentage as typed (0–100, two decimals at most)
	Allotment  string // whole places a day; "" for no cap of its own
	Active     bool
}

func (in PartnerInput) read() (reservation.Partner, error) {
	var p reservation.Partner
	var err error
	if p.Name, err = input.Name("name", in.Name); err != nil {
		return p, err
	}
	if p.CommissionBP, err = input.Percent("commission_percent", in.Commission); err != nil {
		return p, err
	}
	if p.Allotment, err = input.Whole("allotment", in.Allotment, 0, 1_000_000); err != nil {
		return p, err
	}
	p.Active = in.Active
	return p, nil
}

// List is every partner.
func (p *Partners) List(ctx context.Context) ([]reservation.Partner, error) {
	return p.s.store.Partners().ListPartners(ctx)
}

// PartnerRecord is a partner with its keys, the most recently used first.
type PartnerRecord struct {
	reservation.Partner
	Keys []reservation.PartnerKey
}

// Get reads a partner and its keys.
func (p *Partners) Get(ctx context.Context, id int64) (PartnerRecord, error) {
	pt, err := p.s.store.Partners().Partner(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return PartnerRecord{}, partnerNotFound(id)
	}
	if err != nil {
		return PartnerRecord{}, err
	}
	keys, err := p.s.store.Partners().PartnerKeys(ctx, id)
	return PartnerRecord{Partner: pt, Keys: keys}, err
}

func partnerNotFound(id int64) error {
	return fault.Coded(fault.NotFound, "err.partner.not_found", "ID", id)
}

// Create adds a partner (400 naming the field on bad input, nothing saved).
func (p *Partners) Create(ctx context.Context, in PartnerInput) (reservation.Partner, error) {
	pt, err := in.read()
	if err != nil {
		return pt, err
	}
	err = p.s.store.InTx(ctx, func(tx *store.Tx) error {
		pt.ID, err = tx.Partners().InsertPartner(ctx, pt)
		return err
	})
	return pt, err
}

// Update changes partner id's fields: its bookings keep the rate they were booked
// with; a lower allotment refuses new days, never existing bookings.
func (p *Partners) Update(ctx context.Context, id int64, in PartnerInput) (reservation.Partner, error) {
	pt, err := in.read()
	if err != nil {
		return pt, err
	}
	pt.ID = id
	err = p.s.store.InTx(ctx, func(tx *store.Tx) error { return tx.Partners().UpdatePartner(ctx, pt) })
	if errors.Is(err, store.ErrNotFound) {
		return pt, partnerNotFound(id)
	}
	return pt, err
}

// NewKey makes a key for partner id: PartnerKeyPrefix and 40 random characters,
// returned once and stored only as its SHA-256 hash (with its first characters, to
// tell keys apart on the list).
func (p *Partners) NewKey(ctx context.Context, id int64) (keyID int64, key string, err error) {
	raw := make([]byte, 30)
	if _, err := rand.Read(raw); err != nil {
		return 0, "", fmt.Errorf("partner key: %w", err)
	}
	key = PartnerKeyPrefix + base64.RawURLEncoding.EncodeToString(raw)
	err = p.s.store.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Partners().LockPartner(ctx, id); err != nil {
			return err
		}
		keyID, err = tx.Partners().InsertPartnerKey(ctx, id, account.HashToken(key), key[:len(PartnerKeyPrefix)+6])
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return 0, "", partnerNotFound(id)
	}
	return keyID, key, err
}

// RevokeKey revokes partner id's key keyID: it is refused from then on.
func (p *Partners) RevokeKey(ctx context.Context, id, keyID int64) error {
	err := p.s.store.InTx(ctx, func(tx *store.Tx) error { return tx.Partners().RevokePartnerKey(ctx, id, keyID) })
	if errors.Is(err, store.ErrNotFound) {
		return fault.Coded(fault.NotFound, "err.partner.key_not_found", "ID", keyID)
	}
	return err
}

// Caller is the partner a request's key belongs to.
type Caller struct {
	Partner reservation.Partner
	KeyID   int64
}

// Authenticate finds the active partner of a live key; ErrPartnerUnauthorized
// otherwise. It records when the key was last used (at most once a minute).
func (p *Partners) Authenticate(ctx context.Context, key string) (Caller, error) {
	if !strings.HasPrefix(key, PartnerKeyPrefix) {
		return Caller{}, ErrPartnerUnauthorized
	}
	pt, k, err := p.s.store.Partners().KeyPartner(ctx, account.HashToken(key))
	if errors.Is(err, store.ErrNotFound) {
		return Caller{}, ErrPartnerUnauthorized
	}
	if err != nil {
		return Caller{}, err
	}
	if now := p.s.now(); k.LastUsedAt == nil || now.Sub(*k.LastUsedAt) >= partnerKeyTouch {
		if err := p.s.store.InTx(ctx, func(tx *store.Tx) error { return tx.Partners().TouchPartnerKey(ctx, k.ID) }); err != nil {
			p.s.log.WarnContext(ctx, "recording a partner key's use failed", "err", err)
		}
	}
	return Caller{Partner: pt, KeyID: k.ID}, nil
}

// actor is how the audit trail names a partner's changes.
func (c Caller) actor() audit.Actor {
	return audit.Actor{Kind: audit.KindPublic, Name: reservation.PartnerChannel(c.Partner.ID) + " " + c.Partner.Name}
}

// PartnerDay is one day as the partner can sell it: Free is the facility's free
// sellable places, and no more than the allotment minus the partner's own stays
// (never below 0); nil when neither limits it.
type PartnerDay struct {
	Day    occupancy.Day
	Status occupancy.Status
	Free   *int
}

// Availability is span as the calling partner can sell it (docs/partners.md#availability).
func (p *Partners) Availability(ctx context.Context, c Caller, span occupancy.Span) ([]PartnerDay, error) {
	a, err := p.s.Availability(ctx, span)
	if err != nil {
		return nil, err
	}
	var own []int
	if c.Partner.Allotment != nil {
		stays, err := p.s.store.Partners().PartnerStays(ctx, c.Partner.ID, span.First.Start(p.s.loc), (span.Last + 1).Start(p.s.loc))
		if err != nil {
			return nil, err
		}
		own = countDays(stays, p.s.loc, occupancy.DayOf(p.s.now(), p.s.loc), span)
	}
	out := make([]PartnerDay, len(a.Days))
	for i, d := range a.Days {
		out[i] = PartnerDay{Day: d.Day, Status: d.Status}
		var free *int
		if d.Limit > 0 {
			n := d.Free()
			free = &n
		}
		if own != nil {
			n := max(*c.Partner.Allotment-own[i], 0)
			if free == nil || n < *free {
				free = &n
			}
		}
		if free != nil && *free == 0 {
			out[i].Status = occupancy.Full
		}
		out[i].Free = free
	}
	return out, nil
}

// Book makes a partner booking under the partner's own reference, which works as
// an Idempotency-Key for that partner (docs/partners.md#booking): once's Route and
// Key are set here. The booking is a public booking (Service.Create) held to the
// partner's allotment as well as to the facility's sellable places.
func (p *Partners) Book(ctx context.Context, c Caller, ref string, in NewBooking, once Once) (Created, *Answer, error) {
	ref, err := input.PartnerReference("partner_reference", ref)
	if err != nil {
		return Created{}, nil, err
	}
	in.Sale = &reservation.PartnerSale{PartnerID: c.Partner.ID, Reference: ref, RateBP: c.Partner.CommissionBP}
	in.SignedIn = 0 // a partner is never the customer the booking lands on
	once.Route, once.Key = reservation.PartnerChannel(c.Partner.ID), ref
	ctx = audit.WithActor(ctx, c.actor())
	created, stored, err := p.s.CreateOnce(ctx, once, func(opts ...CreateOption) (Created, error) {
		return p.s.Create(ctx, Public, in, opts...)
	})
	if err != nil && store.IsUniqueViolation(err) {
		// The reference was used by a booking whose key has expired.
		err = fault.Coded(fault.Conflict, "err.partner.reference_used", "Field", i18n.FieldName("partner_reference"))
	}
	return created, stored, err
}

// reservationOf is the id of the calling partner's booking of reference ref;
// errPartnerBooking for any other (another partner's included).
func (p *Partners) reservationOf(ctx context.Context, c Caller, ref string) (reservation.Reservation, error) {
	if !input.ValidPartnerReference(ref) {
		return reservation.Reservation{}, errPartnerBooking
	}
	r, err := p.s.store.Partners().PartnerReservation(ctx, c.Partner.ID, ref)
	if errors.Is(err, store.ErrNotFound) {
		return r, errPartnerBooking
	}
	return r, err
}

// Booking reads the calling partner's booking of reference ref (without photos or
// notifications: the manage link's view).
func (p *Partners) Booking(ctx context.Context, c Caller, ref string) (Managed, error) {
	r, err := p.reservationOf(ctx, c, ref)
	if err != nil {
		return Managed{}, err
	}
	return p.s.managed(ctx, r.ID)
}

// Cancel cancels the calling partner's booking of reference ref, as its customer's
// manage link would (PENDIENTE only); its commission is 0 from then on.
func (p *Partners) Cancel(ctx context.Context, c Caller, ref string) (reservation.Reservation, error) {
	r, err := p.reservationOf(ctx, c, ref)
	if err != nil {
		return r, err
	}
	return customerCancel(audit.WithActor(ctx, c.actor()), p.s, r.ID, ref)
}

// Edit changes the calling partner's booking of reference ref as the manage link
// would (dates, main service, extras; the same rules, price and refusals), held to
// the allotment; the commission follows the new price.
func (p *Partners) Edit(ctx context.Context, c Caller, ref string, in CustomerEdit) (Edited, error) {
	r, err := p.reservationOf(ctx, c, ref)
	if err != nil {
		return Edited{}, err
	}
	return p.s.customerEdit(audit.WithActor(ctx, c.actor()), r.ID, anyone, errPartnerBooking, in)
}
