package booking

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"parking/internal/fault"
	"parking/internal/store"
)

// docs/public-booking.md#retries-idempotency-key: an Idempotency-Key on public booking and walk-in. The same key and
// body within IdempotencyTTL answer the first result (same status and body, no new
// row, no second notification); the same key with another body is refused (422);
// the same key while its first request still runs is 409. Keys are scoped to the
// route. The key is written with its answer in the booking's own transaction, so a
// booking that committed just before a crash is answered again, not made twice, on
// retry, and a booking that failed leaves no key behind.

// IdempotencyTTL is how long a key answers with its first result.
const IdempotencyTTL = 24 * time.Hour

// idempotencyStale is how long a key an earlier version of the service left
// running (it wrote the key before the booking) counts before a new request
// overwrites it: its request died without finishing.
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
	// judged: the booking's transaction read the key (PostgreSQL, readKey); nothing
	// reads it before the booking (docs/performance.md#the-key-judged-with-the-booking).
	judged bool
}

// ErrKeyReused refuses an Idempotency-Key sent again with another body (422).
var ErrKeyReused = fault.Coded(fault.Unprocessable, "err.booking.idempotency_reused")

// errKeyRunning refuses a key whose first request is still running (409).
var errKeyRunning = fault.Coded(fault.Conflict, "err.booking.idempotency_running")

// storedAnswer is o's key as stored: nil when it does not count (none, expired, or
// left running long ago by a request of an earlier version that died); the stored
// answer when it was answered with the same body; ErrKeyReused with another body;
// 409 while an earlier version's request runs with it.
func (s *Service) storedAnswer(ctx context.Context, o Once) (*Answer, error) {
	rec, found, err := s.store.Idempotency().IdempotencyKey(ctx, o.Route, o.Key)
	if err != nil {
		return nil, fmt.Errorf("idempotency key: %w", err)
	}
	return judgeKey(o, rec, found, s.store.Clock()())
}

// judgeKey is storedAnswer's judgement of the key as read at now.
func judgeKey(o Once, rec store.IdempotencyRecord, found bool, now time.Time) (*Answer, error) {
	switch {
	case !found || rec.CreatedAt.Before(now.Add(-IdempotencyTTL)):
		return nil, nil
	case rec.Running && rec.CreatedAt.Before(now.Add(-idempotencyStale)):
		return nil, nil
	case rec.BodyHash != o.BodyHash:
		return nil, ErrKeyReused
	case rec.Running:
		return nil, errKeyRunning
	}
	return &Answer{Status: rec.Status, ContentType: rec.ContentType, Location: rec.Location, Body: []byte(rec.Body)}, nil
}

// keyAnswered ends a booking whose key, read in its transaction, counts: the
// transaction rolls back and CreateOnce sends the stored answer or the refusal.
type keyAnswered struct {
	answer *Answer
	err    error
}

func (k *keyAnswered) Error() string { return "idempotency key answered before" }

// readKey queues, on PostgreSQL, the read of o's key with the transaction's first
// round trip (docs/performance.md#the-public-booking-in-two-round-trips); judged
// reports, once that round trip is done, a key that counts as *keyAnswered. On SQLite
// the key is not read: the one writer runs the transactions one at a time, and a key
// that counts makes the answer's save fail with store.ErrKeyTaken, which rolls the
// booking back (docs/performance.md#the-key-judged-with-the-booking).
func readKey(ctx context.Context, tx *store.Tx, o *Once) (judged func() error, err error) {
	if o == nil || tx.Dialect() != store.Postgres {
		return func() error { return nil }, nil
	}
	var q store.QueuedKey
	if err := tx.Idempotency().QueueKey(ctx, o.Route, o.Key, &q); err != nil {
		return nil, err
	}
	return func() error {
		o.judged = true
		rec, found := q.Record()
		if a, err := judgeKey(*o, rec, found, tx.Now); a != nil || err != nil {
			return &keyAnswered{answer: a, err: err}
		}
		return nil
	}, nil
}

// PruneIdempotencyKeys deletes the keys past IdempotencyTTL (the hourly sweep):
// housekeeping only, since an expired key no longer counts and is overwritten.
func (s *Service) PruneIdempotencyKeys(ctx context.Context) (int64, error) {
	return s.store.Idempotency().PruneIdempotencyKeys(ctx, s.store.Clock()().Add(-IdempotencyTTL))
}

// running are the keys whose request runs in this instance: another request with
// one of them is told 409 at once instead of booking beside it.
type running struct {
	mu   sync.Mutex
	keys map[[2]string]struct{}
}

// hold marks (route, key) running; false when it already is.
func (r *running) hold(route, key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.keys[[2]string{route, key}]; ok {
		return false
	}
	if r.keys == nil {
		r.keys = map[[2]string]struct{}{}
	}
	r.keys[[2]string{route, key}] = struct{}{}
	return true
}

func (r *running) release(route, key string) {
	r.mu.Lock()
	delete(r.keys, [2]string{route, key})
	r.mu.Unlock()
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
	return tx.Idempotency().SaveIdempotencyAnswer(ctx, o.Route, o.Key, o.BodyHash, a.Status, a.ContentType, a.Location, string(a.Body),
		tx.Now.Add(-IdempotencyTTL), tx.Now.Add(-idempotencyStale))
}

// CreateOnce runs one create under o's Idempotency-Key
// (docs/public-booking.md#retries-idempotency-key). A key answered before is
// answered again as it was: create's transaction rolls back, on PostgreSQL once it
// has read the key in its first round trip, on SQLite when the answer's save finds
// the key taken; a create refused before that reads the key, and a key that counts is
// answered instead of the refusal. Nothing reads the key before create
// (docs/performance.md#the-key-judged-with-the-booking). Otherwise create runs with
// the key's option, which stores its answer in the booking's own transaction: no
// transaction of the key's own, and nothing to undo when create fails. While it
// runs, the same key in this instance is 409; a request with the same key that
// another instance answered first rolls back and sends that answer. With no key
// (o.Key == ""), create runs alone.
func (s *Service) CreateOnce(ctx context.Context, o Once, create func(...CreateOption) (Created, error)) (Created, *Answer, error) {
	if o.Key == "" {
		c, err := create()
		return c, nil, err
	}
	if !s.running.hold(o.Route, o.Key) {
		return Created{}, nil, errKeyRunning
	}
	defer s.running.release(o.Route, o.Key)
	c, err := create(WithOnce(&o))
	var answered *keyAnswered
	switch {
	case errors.As(err, &answered):
		return Created{}, answered.answer, answered.err
	case errors.Is(err, store.ErrKeyTaken):
		stored, err := s.storedAnswer(ctx, o)
		if err == nil && stored == nil {
			err = errKeyRunning
		}
		return Created{}, stored, err
	case err != nil && !o.judged:
		// Refused before its transaction read the key, or on SQLite, where nothing
		// reads it: the key, if it counts, is answered instead of the refusal.
		if stored, kerr := s.storedAnswer(ctx, o); kerr != nil || stored != nil {
			return Created{}, stored, kerr
		}
	}
	return c, nil, err
}
