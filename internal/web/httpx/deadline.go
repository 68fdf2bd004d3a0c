package httpx

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// deadlineCtx is the request's context with the database deadline
// (docs/reliability.md#every-requests-database-work-has-a-deadline) whose timer starts
// only when something waits for it: the first Done, a child context (which asks for
// Done), or Err once the deadline has passed. Until then it costs one allocation; a
// request that never reaches the database (a price quote from the in-process
// catalogue) never starts a timer (docs/performance.md#request-middleware). It
// behaves as context.WithDeadline(parent, deadline) would, cancelled when the
// request ends (end).
type deadlineCtx struct {
	parent   context.Context
	deadline time.Time

	mu sync.Mutex
	// set says timed or ended is set (read without mu on the fast paths).
	set atomic.Bool
	// timed is context.WithDeadline(parent, deadline), once something waited.
	timed  context.Context
	cancel context.CancelFunc
	// ended is the error of a context the request ended before anything waited on:
	// its Done is closed.
	ended error
}

// closedDone is the Done of a context that ended before anything waited on it.
var closedDone = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// withDBDeadline returns parent with the deadline d from now and the function that
// ends it (as a CancelFunc does). A parent with an earlier deadline gets the plain
// context.WithDeadline.
func withDBDeadline(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if c := newDeadlineCtx(parent, d); c != nil {
		return c, c.end
	}
	return context.WithTimeout(parent, d)
}

// newDeadlineCtx is parent with the deadline d from now; nil when parent has an
// earlier one (context.WithTimeout then gives it).
func newDeadlineCtx(parent context.Context, d time.Duration) *deadlineCtx {
	deadline := time.Now().Add(d)
	if pd, ok := parent.Deadline(); ok && !pd.After(deadline) {
		return nil
	}
	return &deadlineCtx{parent: parent, deadline: deadline}
}

// start returns the timed context, starting its timer; nil once ended.
func (c *deadlineCtx) start() context.Context {
	if c.set.Load() {
		return c.timed
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.set.Load() {
		c.timed, c.cancel = context.WithDeadline(c.parent, c.deadline)
		c.set.Store(true)
	}
	return c.timed
}

// end cancels the context as the request ends: a started timer is stopped; an
// unstarted context keeps the error it would have had (its parent's, the
// deadline's, or Canceled).
func (c *deadlineCtx) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.set.Load() {
		if c.cancel != nil {
			c.cancel()
		}
		return
	}
	switch {
	case c.parent.Err() != nil:
		c.ended = c.parent.Err()
	case !time.Now().Before(c.deadline):
		c.ended = context.DeadlineExceeded
	default:
		c.ended = context.Canceled
	}
	c.set.Store(true)
}

func (c *deadlineCtx) Deadline() (time.Time, bool) { return c.deadline, true }

func (c *deadlineCtx) Done() <-chan struct{} {
	if t := c.start(); t != nil {
		return t.Done()
	}
	return closedDone
}

// Err is nil while the parent is live and the deadline ahead, without starting the
// timer; otherwise the started context's error.
func (c *deadlineCtx) Err() error {
	if !c.set.Load() && c.parent.Err() == nil && time.Now().Before(c.deadline) {
		return nil
	}
	if t := c.start(); t != nil {
		return t.Err()
	}
	return c.ended
}

// Value is the parent's; once the timer runs, the timed context's (the same values,
// and the context package finds its own cancellation there, so a child context is
// cancelled by it directly, without a goroutine).
func (c *deadlineCtx) Value(key any) any {
	if c.set.Load() && c.timed != nil {
		return c.timed.Value(key)
	}
	return c.parent.Value(key)
}

func (c *deadlineCtx) String() string { return "httpx.deadlineCtx" }
