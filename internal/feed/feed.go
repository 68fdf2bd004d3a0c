// Package feed is the in-process broker behind the live parking board: the booking
// operations publish a change after their transaction commits, and each open
// Server-Sent Events stream receives it. It never blocks a publisher: a subscriber
// that does not keep up is dropped (its channel closed), and its browser reconnects
// and reloads the board.
package feed

import (
	"sync"
	"time"
)

// Kind names what happened to a reservation's spot.
type Kind string

const (
	Started     Kind = "started"      // PENDIENTE → EN CURSO: the spot is now occupied
	Finalized   Kind = "finalized"    // EN CURSO → FINALIZADA: the vehicle left
	Cancelled   Kind = "cancelled"    // → CANCELADA: the spot is freed
	SpotChanged Kind = "spot_changed" // assigned, moved or cleared (also a new booking with a spot)
	Arrived     Kind = "arrived"      // a gate camera saw the car arrive; the stay is not started (docs/gate.md)
)

// Event is one change of the parking board.
type Event struct {
	ID            uint64 // increasing per broker, for the SSE id field
	Kind          Kind
	ReservationID int64
	Status        string
	Spot          *string // after the change
	PreviousSpot  *string // before it
	At            time.Time
}

// Buffer is how many events a subscriber may fall behind before it is dropped.
const Buffer = 64

// Broker fans events out to subscribers. The zero value is ready to use.
type Broker struct {
	mu     sync.Mutex
	subs   map[*Subscription]struct{}
	seq    uint64
	closed bool
}

// Subscription receives events on C until it is closed, the broker closes, or it
// falls more than Buffer events behind; in each case C is closed.
type Subscription struct {
	C      <-chan Event
	Seq    uint64 // the broker's Seq when the subscription began: C carries every later event
	c      chan Event
	broker *Broker
}

// Subscribe starts a subscription. After Close it returns one whose C is closed.
func (b *Broker) Subscribe() *Subscription {
	c := make(chan Event, Buffer)
	s := &Subscription{C: c, c: c, broker: b}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		close(c)
		return s
	}
	if b.subs == nil {
		b.subs = map[*Subscription]struct{}{}
	}
	b.subs[s] = struct{}{}
	s.Seq = b.seq
	return s
}

// Close ends the subscription; it is safe to call more than once.
func (s *Subscription) Close() {
	b := s.broker
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.subs[s]; ok {
		delete(b.subs, s)
		close(s.c)
	}
}

// Publish sends e to every subscriber without waiting; it stamps ID and, when
// zero, At. Publishing on a closed broker does nothing.
func (b *Broker) Publish(e Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.seq++
	e.ID = b.seq
	if e.At.IsZero() {
		e.At = time.Now()
	}
	for s := range b.subs {
		select {
		case s.c <- e:
		default: // too far behind: drop it rather than block the operation
			delete(b.subs, s)
			close(s.c)
		}
	}
}

// Seq is the ID of the last event published (0 before the first). A page that
// reads Seq before reading what the events describe knows, from a subscription's
// first Seq, whether anything happened in between (the parking board's first
// connection, docs/admin.md#live-feed).
func (b *Broker) Seq() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.seq
}

// Subscribers counts the open subscriptions.
func (b *Broker) Subscribers() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.subs)
}

// Close ends every subscription (server shutdown) and refuses new ones.
func (b *Broker) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	for s := range b.subs {
		delete(b.subs, s)
		close(s.c)
	}
}

// Reset ends every current subscription but keeps the broker open: their clients
// reconnect and reload the board. Used when events may have been missed (the
// connection that brings other instances' events was lost). It moves Seq on, so a
// page read before it does not pass for current.
func (b *Broker) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	for s := range b.subs {
		delete(b.subs, s)
		close(s.c)
	}
}
