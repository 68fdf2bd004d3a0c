package booking

import (
	"context"
	"sync"
	"time"

	"parking/internal/occupancy"
	"parking/internal/settings"
)

// The quote's copy of the occupancy (docs/capacity.md#the-quotes-copy-of-the-occupancy).
// With a capacity set, the quote answers how full the stay's days are. Rather than
// read the ledger and the open stays on every quote, it keeps the booked count of a
// window of days around today, read at once and shared by every quote for at most
// OccupancyCacheTTL. The booking itself never reads this copy: it checks the days in
// its own transaction (capacity.go).

// OccupancyCacheTTL bounds how long a quote may use booked counts another instance
// has since changed; this instance's own changes drop the copy before they return.
// By the injected clock.
const OccupancyCacheTTL = time.Second

// The window the copy holds, around the facility's today: stays of the past week
// and of the coming year. A stay outside it is read from the database as before.
const (
	occupancyCachePast   = 7
	occupancyCacheFuture = 366
)

// nearFullMinimum is the smallest margin of nearFull, in places.
const nearFullMinimum = 10

// nearFull says whether a day with booked of limit places is read exactly rather than
// from the copy: when its free places are at or below the margin, a tenth of the
// limit rounded up (so every day occupancy.StatusOf calls "few", free*10 < limit, is
// within it) and never fewer than nearFullMinimum places.
//
// Why this keeps the quote right about full days: this instance's own changes drop
// the copy before they return, so here the copy is exact. Another instance's bookings
// reach it at the latest after OccupancyCacheTTL (sooner when the settings change
// or the connection to the other instances is lost: both drop it). A day the copy
// shows with more free places than the margin needs more than margin bookings on it
// elsewhere, within that second, to be full; every other day is read from the
// database. So a stale answer can be a day shown "available" that has just become
// "few" on another instance within the TTL, and it can never show a full day as
// available unless more than margin bookings land on that day elsewhere within the
// TTL. Whatever a quote says, the booking is refused if the day is full.
func nearFull(booked, limit int) bool {
	return limit-booked <= max((limit+9)/10, nearFullMinimum)
}

// occupancyCache is the copy. gen counts the drops: a fill that began before one
// does not store what it read (its own waiters still get it: they asked before the
// change returned).
type occupancyCache struct {
	now  func() time.Time
	loc  *time.Location
	read func(context.Context, occupancy.Span) ([]int, error) // the booked counts of a span, as availability computes them

	mu   sync.Mutex
	cur  *occupancyCopy // nil: none
	fill *occupancyFill // the read in flight that new quotes share; nil: none
	gen  uint64
}

// occupancyCopy is one read of the window: immutable once stored.
type occupancyCopy struct {
	today  occupancy.Day // the facility's today it was read on (open stays count through it)
	span   occupancy.Span
	booked []int // per day of span
	at     time.Time
}

// occupancyFill is a read of the window that concurrent quotes wait for together.
type occupancyFill struct {
	done  chan struct{}
	today occupancy.Day
	c     *occupancyCopy
	err   error
}

// init reads through s: its clock and zone, and the counts as s.availability
// computes them (the ledger, and the open stays through today).
func (c *occupancyCache) init(s *Service) {
	c.now, c.loc = func() time.Time { return s.now() }, s.loc
	c.read = func(ctx context.Context, sp occupancy.Span) ([]int, error) {
		a, err := s.availability(ctx, sp, settings.Facility{})
		if err != nil {
			return nil, err
		}
		booked := make([]int, len(a.Days))
		for i, d := range a.Days {
			booked[i] = d.Booked
		}
		return booked, nil
	}
}

// fresh says whether c can answer a quote at now: read on the same facility day and
// younger than OccupancyCacheTTL.
func (c *occupancyCopy) fresh(now time.Time, today occupancy.Day) bool {
	return c != nil && c.today == today && !now.Before(c.at) && now.Sub(c.at) < OccupancyCacheTTL
}

// booked is the booked counts of sp's days from the copy, filling it first when it is
// missing or stale. ok is false when the quote must read the database instead: sp is
// outside the window, or one of its days is near full for limit (nearFull).
func (c *occupancyCache) booked(ctx context.Context, sp occupancy.Span, limit int) (booked []int, ok bool, err error) {
	now := c.now()
	today := occupancy.DayOf(now, c.loc)
	window := occupancy.Span{First: today - occupancyCachePast, Last: today + occupancyCacheFuture}
	if sp.First < window.First || sp.Last > window.Last {
		return nil, false, nil
	}
	c.mu.Lock()
	cur := c.cur
	if !cur.fresh(now, today) {
		f := c.fill
		if f == nil || f.today != today {
			f = &occupancyFill{done: make(chan struct{}), today: today}
			c.fill = f
			go c.run(ctx, f, window, now, c.gen)
		}
		c.mu.Unlock()
		select {
		case <-f.done:
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
		if f.err != nil {
			return nil, false, f.err
		}
		cur = f.c
	} else {
		c.mu.Unlock()
	}
	booked = cur.booked[sp.First-cur.span.First : sp.Last-cur.span.First+1]
	for _, n := range booked {
		if nearFull(n, limit) {
			return nil, false, nil
		}
	}
	return booked, true, nil
}

// occupancyReadTimeout bounds the window's read: the quotes that arrive meanwhile wait
// for it, so a read the database never answers must not hold them past this.
const occupancyReadTimeout = 10 * time.Second

// run reads the window for f and stores it unless the copy was dropped meanwhile (or
// a younger copy was stored: a read of the previous day that ends late). It runs on
// its own goroutine, without the quote's cancellation: the quotes waiting for it may
// give up, the read finishes for the others.
func (c *occupancyCache) run(ctx context.Context, f *occupancyFill, window occupancy.Span, at time.Time, gen uint64) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), occupancyReadTimeout)
	booked, err := c.read(ctx, window)
	cancel()
	c.mu.Lock()
	if err != nil {
		f.err = err
	} else {
		f.c = &occupancyCopy{today: f.today, span: window, booked: booked, at: at}
		if c.gen == gen && (c.cur == nil || !c.cur.at.After(at)) {
			c.cur = f.c
		}
	}
	if c.fill == f {
		c.fill = nil
	}
	c.mu.Unlock()
	close(f.done)
}

// drop forgets the copy and any read in flight: the ledger moved here (after the
// commit, before the operation returns), the settings changed, or announcements from
// the other instances may have been missed.
func (c *occupancyCache) drop() {
	c.mu.Lock()
	c.gen++
	c.cur, c.fill = nil, nil
	c.mu.Unlock()
}

// availabilityOf is the availability of sp's days with their booked counts under f,
// written into days when it is long enough.
func availabilityOf(sp occupancy.Span, f settings.Facility, booked []int, days []DayAvailability) Availability {
	if cap(days) < sp.Len() {
		days = make([]DayAvailability, sp.Len())
	}
	out := Availability{From: sp.First, To: sp.Last, Facility: f, Days: days[:sp.Len()]}
	limit := f.SellableLimit()
	for i := range out.Days {
		out.Days[i] = DayAvailability{Day: sp.First + occupancy.Day(i), Booked: booked[i], Limit: limit,
			Status: occupancy.StatusOf(booked[i], limit)}
	}
	return out
}
