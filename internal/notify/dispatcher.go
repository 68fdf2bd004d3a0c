package notify

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"parking/internal/store"
)

// Tuning sets the dispatcher's pace; zero fields take the defaults. Tests shorten
// Poll and Backoff to run in milliseconds.
type Tuning struct {
	// Timeout is the sender's per-delivery timeout (PARKING_WEBHOOK_TIMEOUT); it
	// sizes the lease. Default 10 s.
	Timeout time.Duration
	// Workers is how many deliveries run at once. Default 16.
	Workers int
	// Poll is how often the outbox is read without a wake-up: rows committed by other
	// instances, rows whose claimer died, retries that came due. Default 2 s.
	Poll time.Duration
	// Lease is how long a claim keeps a row from other dispatchers. It must outlast
	// the wait in the local queue plus one delivery. Default 3 × Timeout + 30 s.
	Lease time.Duration
	// MaxAttempts is the attempt after which a retryable failure becomes final.
	// Default DefaultMaxAttempts (16).
	MaxAttempts int
	// Backoff is the delay before each retry. Default DefaultBackoff().
	Backoff Backoff
	// Grace is how long Stop lets in-flight deliveries finish before cancelling
	// them (they are then left pending, to be retried). Default 10 s.
	Grace time.Duration
}

func (t Tuning) withDefaults() Tuning {
	if t.Timeout <= 0 {
		t.Timeout = 10 * time.Second
	}
	if t.Workers <= 0 {
		t.Workers = 16
	}
	if t.Poll <= 0 {
		t.Poll = 2 * time.Second
	}
	if t.Lease <= 0 {
		t.Lease = 3*t.Timeout + 30*time.Second
	}
	if t.MaxAttempts <= 0 {
		t.MaxAttempts = DefaultMaxAttempts
	}
	if t.Backoff == nil {
		t.Backoff = DefaultBackoff()
	}
	if t.Grace <= 0 {
		t.Grace = 10 * time.Second
	}
	return t
}

// Dispatcher delivers committed outbox rows. One runs per process; several
// processes on one PostgreSQL share the outbox safely (each row is claimed by one
// of them at a time, see store.ClaimNotifications).
//
// It is a small pipeline: a claimer leases due rows (up to four times the worker count
// in flight), workers post them, and a recorder writes the outcomes in batches, one
// transaction for many rows. A slow receiver therefore holds up only the workers
// posting to it, never the triggering requests, and a fast one is fed as fast as
// the database commits.
type Dispatcher struct {
	store  *store.Store
	sender Sender
	wake   <-chan struct{}
	log    *slog.Logger
	t      Tuning
	now    func() time.Time
	sealer *Sealer // opens sealed payload values at delivery (seal.go)

	jobs     chan store.ClaimedNotification
	results  chan store.DeliveryOutcome
	freed    chan struct{}
	stop     chan struct{}
	done     chan struct{}
	inflight atomic.Int64
	maxIn    int64
	stopping atomic.Bool

	sendCtx     context.Context
	cancelSends context.CancelFunc

	mu      sync.Mutex
	nextDue time.Time // earliest retry this dispatcher scheduled, so it wakes for it

	startOnce, stopOnce sync.Once
	started             atomic.Bool

	observer atomic.Pointer[func(Progress)]
	outcome  func(result string) // OnOutcome; set before Start
}

// OnOutcome makes f be told of every delivery outcome this dispatcher records, by
// result: "delivered", "retry", "failed", "released" (the metrics count them).
// Call it before Start; f must not block.
func (d *Dispatcher) OnOutcome(f func(result string)) { d.outcome = f }

// outcomeName is an outcome's name for OnOutcome.
func outcomeName(k store.OutcomeKind) string {
	switch k {
	case store.Delivered:
		return "delivered"
	case store.RetryLater:
		return "retry"
	case store.GaveUp:
		return "failed"
	default:
		return "released"
	}
}

// Progress is one step of a dispatcher: a claim pass (Claim set: the clock reading
// it claimed at and how many rows were due) or a batch of recorded outcomes.
type Progress struct {
	Claim    bool
	At       time.Time // claim passes: the dispatcher's "now"
	Claimed  int       // claim passes: rows claimed (0: none was due)
	Recorded int       // recorded batches: outcomes written
}

// Observe makes f be told of every step after it (nil stops). Tests use it to
// wait for the dispatcher instead of sleeping, and to prove that nothing more
// is due: a claim pass at a given instant that claimed nothing. f must not block.
func (d *Dispatcher) Observe(f func(Progress)) {
	if f == nil {
		d.observer.Store(nil)
		return
	}
	d.observer.Store(&f)
}

func (d *Dispatcher) observed(p Progress) {
	if f := d.observer.Load(); f != nil {
		(*f)(p)
	}
}

// NewDispatcher builds a dispatcher that posts with sender and wakes on wake (the
// Outbox's channel; nil polls only).
func NewDispatcher(st *store.Store, sender Sender, wake <-chan struct{}, log *slog.Logger, t Tuning) *Dispatcher {
	t = t.withDefaults()
	d := &Dispatcher{
		store: st, sender: sender, wake: wake, log: log, t: t, now: st.Clock(), // the service's one clock
		maxIn:   int64(4 * t.Workers),
		freed:   make(chan struct{}, 1),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
		results: make(chan store.DeliveryOutcome, 2*t.Workers),
	}
	d.jobs = make(chan store.ClaimedNotification, d.maxIn)
	d.sendCtx, d.cancelSends = context.WithCancel(context.Background())
	return d
}

// SetSealer sets the key that opens the payloads' sealed values (the outbox's:
// Outbox.Sealer). Call it before Start.
func (d *Dispatcher) SetSealer(s *Sealer) { d.sealer = s }

// Start runs the dispatcher in the background until Stop.
func (d *Dispatcher) Start() {
	d.startOnce.Do(func() {
		d.started.Store(true)
		var workers sync.WaitGroup
		for range d.t.Workers {
			workers.Add(1)
			go func() {
				defer workers.Done()
				d.work()
			}()
		}
		go func() {
			workers.Wait()
			close(d.results)
		}()
		go d.record()
		go d.claim()
	})
}

// Stop stops claiming, lets in-flight deliveries finish for up to the grace period
// (then cancels them), releases the rows claimed but not yet attempted, records
// every outcome, and returns. Whatever was not delivered stays pending for the next
// dispatcher, here or in another process.
func (d *Dispatcher) Stop() {
	d.stopOnce.Do(func() {
		if !d.started.Load() {
			return
		}
		d.stopping.Store(true)
		close(d.stop)
		hard := time.AfterFunc(d.t.Grace, d.cancelSends)
		<-d.done
		hard.Stop()
		d.cancelSends()
	})
}

// claim leases due rows whenever woken (a commit, a freed slot, the poll timer) and
// hands them to the workers.
func (d *Dispatcher) claim() {
	defer close(d.jobs)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-d.wake:
		case <-d.freed:
		case <-timer.C:
		}
		wait := d.t.Poll
		if err := d.claimDue(); err != nil {
			d.log.Error("notification claim failed", "err", err)
		}
		d.mu.Lock()
		if !d.nextDue.IsZero() {
			if w := d.nextDue.Sub(d.now()); w < wait {
				wait = max(w, time.Millisecond)
			}
		}
		d.mu.Unlock()
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(wait)
	}
}

func (d *Dispatcher) claimDue() error {
	free := d.maxIn - d.inflight.Load()
	if free <= 0 {
		return nil // the recorder signals freed when slots open
	}
	now := d.now()
	d.mu.Lock()
	if !d.nextDue.IsZero() && !d.nextDue.After(now) {
		d.nextDue = time.Time{} // this claim covers it
	}
	d.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	claimed, err := d.store.Outbox().ClaimNotifications(ctx, now, d.t.Lease, newLeaseToken(), int(free))
	if err != nil {
		return err
	}
	d.inflight.Add(int64(len(claimed)))
	for _, c := range claimed {
		d.jobs <- c // never blocks: the channel holds maxIn and inflight ≤ maxIn
	}
	d.observed(Progress{Claim: true, At: now, Claimed: len(claimed)})
	return nil
}

// work posts claimed rows and turns each result into an outcome.
func (d *Dispatcher) work() {
	for c := range d.jobs {
		d.results <- d.deliver(c)
	}
}

func (d *Dispatcher) deliver(c store.ClaimedNotification) store.DeliveryOutcome {
	out := store.DeliveryOutcome{ID: c.ID, LeaseToken: c.LeaseToken}
	// Not started on shutdown, nor when the lease could run out before the timeout:
	// another dispatcher may then claim the row, and two posts would race.
	if d.stopping.Load() || d.now().Add(d.t.Timeout).After(c.LockedUntil) {
		out.Kind = store.Released
		return out
	}
	attempt := c.Attempts + 1
	log := d.log.With("notification_id", c.ID, "type", c.Type, "id_reservation", c.ReservationID,
		"delivery_id", c.DeliveryID, "attempt", attempt)
	body, err := d.open(c.Payload)
	if err != nil {
		out.At, out.Kind, out.Error = d.now(), store.GaveUp, err.Error()
		log.Error("notification not sent: its sealed link does not open with this service's secret key", "err", err)
		return out
	}
	err = d.sender.Send(d.sendCtx, Message{ID: c.ID, Type: Kind(c.Type), DeliveryID: c.DeliveryID, Body: body, Attempt: attempt})
	out.At = d.now()
	if err == nil {
		out.Kind = store.Delivered
		if attempt > 1 {
			log.Info("notification delivered after retries")
		} else {
			log.Debug("notification delivered")
		}
		return out
	}
	if d.sendCtx.Err() != nil {
		// Cancelled by Stop after the grace period: not the receiver's fault, and
		// not counted; the next dispatcher sends it again.
		out.Kind = store.Released
		log.Warn("notification delivery interrupted by shutdown; left for retry")
		return out
	}
	out.Error = err.Error()
	var se *SendError
	switch {
	case errors.As(err, &se) && se.Permanent:
		out.Kind = store.GaveUp
		log.Error("notification delivery refused by the webhook; not retried", "err", err)
	case attempt >= d.t.MaxAttempts:
		out.Kind = store.GaveUp
		out.Error = fmt.Sprintf("%s (gave up after %d attempts)", out.Error, attempt)
		log.Error("notification delivery failed; attempts exhausted", "err", err)
	default:
		delay := d.t.Backoff(attempt)
		if se != nil && se.RetryAfter > delay {
			delay = min(se.RetryAfter, maxRetryAfter)
		}
		out.Kind = store.RetryLater
		out.NextAttempt = out.At.Add(delay)
		log.Warn("notification delivery failed; will retry", "err", err, "next_attempt_at", out.NextAttempt)
	}
	return out
}

// open puts the plain value back in place of each sealed one: the row keeps the
// sealed form, the webhook gets the link. A value that does not open (the secret
// key changed) cannot be sent by any instance: the row fails at once.
func (d *Dispatcher) open(payload []byte) ([]byte, error) {
	if !HasSealed(payload) {
		return payload, nil
	}
	if d.sealer == nil {
		return nil, ErrUnseal
	}
	return d.sealer.Unseal(payload)
}

// record writes outcomes in batches: whatever has arrived when a write starts goes
// into one transaction.
func (d *Dispatcher) record() {
	defer close(d.done)
	const maxBatch = 256
	batch := make([]store.DeliveryOutcome, 0, maxBatch)
	for o := range d.results {
		batch = append(batch[:0], o)
	drain:
		for len(batch) < maxBatch {
			select {
			case o, ok := <-d.results:
				if !ok {
					break drain
				}
				batch = append(batch, o)
			default:
				break drain
			}
		}
		d.write(batch)
		if d.outcome != nil {
			for _, o := range batch {
				d.outcome(outcomeName(o.Kind))
			}
		}
		d.inflight.Add(-int64(len(batch)))
		select {
		case d.freed <- struct{}{}:
		default:
		}
		d.observed(Progress{Recorded: len(batch)})
	}
}

func (d *Dispatcher) write(batch []store.DeliveryOutcome) {
	for _, o := range batch {
		if o.Kind == store.RetryLater {
			d.mu.Lock()
			if d.nextDue.IsZero() || o.NextAttempt.Before(d.nextDue) {
				d.nextDue = o.NextAttempt
			}
			d.mu.Unlock()
		}
	}
	var err error
	for try := 0; try < 5; try++ {
		if try > 0 {
			time.Sleep(time.Duration(try) * 200 * time.Millisecond)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		var lost []int64
		lost, err = d.store.Outbox().RecordDeliveries(ctx, batch)
		cancel()
		if err == nil {
			if len(lost) > 0 {
				d.log.Warn("notification outcomes not recorded: the rows were claimed again or changed meanwhile", "notification_ids", lost)
			}
			return
		}
	}
	// The rows keep their lease until it expires, then are claimed and sent again:
	// at least once, never lost (receivers deduplicate by X-Parking-Delivery).
	d.log.Error("notification outcomes could not be recorded; rows will be retried after their lease", "rows", len(batch), "err", err)
}

func newLeaseToken() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
