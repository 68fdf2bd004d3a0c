package booking

import (
	"context"
	"fmt"
	"time"

	"parking/internal/fault"
	"parking/internal/store"
)

// docs/public-booking.md#retries-idempotency-key: an Idempotency-Key on public booking and walk-in. The same key and
// body within IdempotencyTTL answer the first result (same status and body, no new
// row, no second notification); the same key with another body is refused (422);
// the same key while its first request still runs is 409. Keys are scoped to the
// route. The answer is stored in the booking's own transaction, so a booking that
// committed just before a crash is answered again, not made twice, on retry.

// IdempotencyTTL is how long a key answers with its first result.
const IdempotencyTTL = 24 * time.Hour

// idempotencyStale is how long a running key may stay unfinished before another
// request with it takes it over: its request died (a crash) without finishing.
const idempotencyStale = 2 * time.Minute

// Answer is an HTTP answer as stored for a key: what the first request got.
type Answer struct {
	Status      int
	ContentType string
	Location    string
	Body        []byte
}

// Once is one idempotent request: the route (the key's scope), the client's key, the
// SHA-256 of its body, and how the web layer answers a booking (called inside the
// booking's transaction, so that the answer is stored with it).
type Once struct {
	Route, Key, BodyHash string
	Answer               func(Created) (Answer, error)
}

// ErrKeyReused refuses an Idempotency-Key sent again with another body (422).
var ErrKeyReused = fault.Coded(fault.Unprocessable, "err.booking.idempotency_reused")

// errKeyRunning refuses a key whose first request is still running (409).
var errKeyRunning = fault.Coded(fault.Conflict, "err.booking.idempotency_running")

// Claim claims o's key for this request. A nil answer and nil error: the request
// owns the key and goes on (Create with WithOnce, or Release on failure). A stored
// answer: the key's first result, to be sent again as it is. ErrKeyReused for the
// key with another body; a Conflict while the first request runs.
func (s *Service) Claim(ctx context.Context, o Once) (*Answer, error) {
	var claimed bool
	var rec store.IdempotencyRecord
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		var err error
		claimed, rec, err = tx.Idempotency().ClaimIdempotencyKey(ctx, o.Route, o.Key, o.BodyHash, tx.Now.Add(-IdempotencyTTL), tx.Now.Add(-idempotencyStale))
		return err
	})
	switch {
	case err != nil:
		return nil, fmt.Errorf("idempotency key: %w", err)
	case claimed:
		return nil, nil
	case rec.BodyHash != o.BodyHash:
		return nil, ErrKeyReused
	case !rec.Done:
		return nil, errKeyRunning
	}
	return &Answer{Status: rec.Status, ContentType: rec.ContentType, Location: rec.Location, Body: []byte(rec.Body)}, nil
}

// Release forgets o's key after its request failed without booking, so that the
// same key may be sent again (with the same or a corrected body). Errors are logged:
// at worst the key answers 409 until it goes stale.
func (s *Service) Release(ctx context.Context, o Once) {
	ctx = context.WithoutCancel(ctx) // a client that gave up still frees its key
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		return tx.Idempotency().ReleaseIdempotencyKey(ctx, o.Route, o.Key)
	})
	if err != nil {
		s.log.ErrorContext(ctx, "release idempotency key", "route", o.Route, "err", err)
	}
}

// CreateOption adjusts one Create or WalkIn.
type CreateOption func(*createOptions)

type createOptions struct{ once *Once }

// WithOnce stores the booking's answer under o's claimed key in the booking's own
// transaction (docs/public-booking.md#retries-idempotency-key).
func WithOnce(o *Once) CreateOption { return func(c *createOptions) { c.once = o } }

// finishOnce stores the answer of a booking under its key, inside the booking's
// transaction.
func finishOnce(ctx context.Context, tx *store.Tx, o *Once, c Created) error {
	if o == nil {
		return nil
	}
	a, err := o.Answer(c)
	if err != nil {
		return err
	}
	return tx.Idempotency().FinishIdempotencyKey(ctx, o.Route, o.Key, a.Status, a.ContentType, a.Location, string(a.Body))
}

// CreateOnce runs one create under o's Idempotency-Key
// (docs/public-booking.md#retries-idempotency-key): it claims the key, runs create
// with the key's option, and frees the key when create fails. A stored answer is the
// key's first result, to be sent again as it is (create does not run). With no key
// (o.Key == ""), create runs alone.
func (s *Service) CreateOnce(ctx context.Context, o Once, create func(...CreateOption) (Created, error)) (Created, *Answer, error) {
	if o.Key == "" {
		c, err := create()
		return c, nil, err
	}
	stored, err := s.Claim(ctx, o)
	if err != nil || stored != nil {
		return Created{}, stored, err
	}
	c, err := create(WithOnce(&o))
	if err != nil {
		s.Release(ctx, o)
	}
	return c, nil, err
}
