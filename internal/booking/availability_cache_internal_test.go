package booking

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parking/internal/clock"
	"parking/internal/occupancy"
)

// fakeOccupancy is an occupancyCache over a fake read: every day has booked places,
// each read is counted, and a read waits for gate when one is set.
type fakeOccupancy struct {
	c      *occupancyCache
	clk    *clock.Fake
	reads  atomic.Int64
	booked atomic.Int64
	gate   chan struct{} // nil: reads answer at once
	began  chan struct{} // a read has begun (when gate is set)
	err    error
	ctx    context.Context // the last read's
}

func newFakeOccupancy(t *testing.T, at time.Time) *fakeOccupancy {
	t.Helper()
	madrid, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeOccupancy{clk: clock.NewFake(at)}
	f.c = &occupancyCache{now: f.clk.Now, loc: madrid}
	f.c.read = func(ctx context.Context, sp occupancy.Span) ([]int, error) {
		f.reads.Add(1)
		f.ctx = ctx
		if f.gate != nil {
			f.began <- struct{}{}
			<-f.gate
		}
		if f.err != nil {
			return nil, f.err
		}
		out := make([]int, sp.Len())
		for i := range out {
			out[i] = int(f.booked.Load())
		}
		return out, nil
	}
	return f
}

func (f *fakeOccupancy) gated() {
	f.gate, f.began = make(chan struct{}), make(chan struct{}, 100)
}

// stay is a span of days starting n days after the clock's today.
func (f *fakeOccupancy) stay(n, days int) occupancy.Span {
	today := occupancy.DayOf(f.clk.Now(), f.c.loc)
	return occupancy.Span{First: today + occupancy.Day(n), Last: today + occupancy.Day(n+days-1)}
}

func (f *fakeOccupancy) mustBook(t *testing.T, sp occupancy.Span, limit, want int) {
	t.Helper()
	got, ok, err := f.c.booked(context.Background(), sp, limit)
	if err != nil || !ok {
		t.Fatalf("booked %v: ok %v, err %v; want the copy's counts", sp, ok, err)
	}
	if len(got) != sp.Len() || got[0] != want {
		t.Fatalf("booked %v: %v, want %d days of %d", sp, got, sp.Len(), want)
	}
}

func (f *fakeOccupancy) wantReads(t *testing.T, want int64, when string) {
	t.Helper()
	if got := f.reads.Load(); got != want {
		t.Fatalf("%s: %d reads of the window, want %d", when, got, want)
	}
}

var noon = time.Date(2026, 12, 1, 11, 0, 0, 0, time.UTC) // 12:00 in Madrid

// Repeated quotes share one read until the copy is OccupancyCacheTTL old or dropped.
func TestOccupancyCopyServesRepeatedQuotes(t *testing.T) {
	f := newFakeOccupancy(t, noon)
	f.booked.Store(3)
	for range 50 {
		f.mustBook(t, f.stay(2, 5), 100, 3)
	}
	f.wantReads(t, 1, "50 quotes")
	f.booked.Store(4)
	f.clk.Advance(OccupancyCacheTTL - time.Microsecond)
	f.mustBook(t, f.stay(0, 1), 100, 3)
	f.wantReads(t, 1, "just under the TTL")
	f.clk.Advance(time.Microsecond)
	f.mustBook(t, f.stay(0, 1), 100, 4)
	f.wantReads(t, 2, "at the TTL")
	f.booked.Store(5)
	f.c.drop()
	f.mustBook(t, f.stay(0, 1), 100, 5)
	f.wantReads(t, 3, "after a drop")
	// A clock that went back does not make an old copy fresh.
	f.clk.Set(noon.Add(-time.Minute))
	f.mustBook(t, f.stay(0, 1), 100, 5)
	f.wantReads(t, 4, "clock moved back")
}

// The copy is keyed by the facility's today: at midnight in Madrid it is read again,
// however young (open stays count through today).
func TestOccupancyCopyReadAgainAtMidnight(t *testing.T) {
	f := newFakeOccupancy(t, time.Date(2026, 12, 1, 22, 59, 59, 900_000_000, time.UTC)) // 23:59:59.9 in Madrid
	f.mustBook(t, f.stay(1, 1), 100, 0)
	f.booked.Store(1)
	f.clk.Advance(200 * time.Millisecond) // 00:00:00.1, well within the TTL
	f.mustBook(t, f.stay(0, 1), 100, 1)
	f.wantReads(t, 2, "across midnight")
}

// Days near full are read from the database (ok false): free places at or below a
// tenth of the limit, rounded up, and never fewer than nearFullMinimum.
func TestOccupancyCopyNearFull(t *testing.T) {
	for _, c := range []struct {
		booked, limit int
		copy          bool
	}{
		{0, 1, false}, {0, 10, false}, {0, 11, true}, {10, 20, false}, {9, 20, true},
		{900, 1000, false}, {899, 1000, true}, {1000, 1000, false}, {1200, 1000, false},
		{894, 995, true}, {895, 995, false}, // 995/10 rounded up: 100
	} {
		if got := !nearFull(c.booked, c.limit); got != c.copy {
			t.Errorf("%d of %d booked: from the copy %v, want %v", c.booked, c.limit, got, c.copy)
		}
		// Every day StatusOf calls few or full is near full.
		if st := occupancy.StatusOf(c.booked, c.limit); st != occupancy.Available && !nearFull(c.booked, c.limit) {
			t.Errorf("%d of %d booked: %s but not near full", c.booked, c.limit, st)
		}
	}
	f := newFakeOccupancy(t, noon)
	f.booked.Store(90)
	if _, ok, err := f.c.booked(context.Background(), f.stay(0, 3), 100); ok || err != nil {
		t.Fatalf("a stay with a day near full: ok %v, err %v; want a database read", ok, err)
	}
	f.mustBook(t, f.stay(0, 3), 102, 90)
	f.wantReads(t, 1, "near full and not")
}

// A stay outside the window is read from the database, without filling the copy.
func TestOccupancyCopyWindow(t *testing.T) {
	f := newFakeOccupancy(t, noon)
	f.mustBook(t, f.stay(-occupancyCachePast, 1), 100, 0)
	f.mustBook(t, f.stay(occupancyCacheFuture, 1), 100, 0)
	for _, sp := range []occupancy.Span{f.stay(-occupancyCachePast-1, 2), f.stay(occupancyCacheFuture, 2)} {
		if _, ok, err := f.c.booked(context.Background(), sp, 100); ok || err != nil {
			t.Fatalf("stay %v outside the window: ok %v, err %v; want a database read", sp, ok, err)
		}
	}
	f.wantReads(t, 1, "window")
}

// Quotes that arrive while the window is being read wait for that read: one read for
// all of them.
func TestOccupancyCopySharesOneRead(t *testing.T) {
	f := newFakeOccupancy(t, noon)
	f.gated()
	f.booked.Store(7)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Go(func() {
			got, ok, err := f.c.booked(context.Background(), f.stay(1, 4), 100)
			if err == nil && (!ok || got[0] != 7) {
				err = errors.New("wrong counts")
			}
			errs <- err
		})
	}
	<-f.began
	close(f.gate)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	f.wantReads(t, 1, "20 quotes at once")
}

// A failed read answers its error to every quote waiting for it and is not kept: the
// next quote reads again.
func TestOccupancyCopyReadError(t *testing.T) {
	f := newFakeOccupancy(t, noon)
	boom := errors.New("database gone")
	f.err = boom
	if _, _, err := f.c.booked(context.Background(), f.stay(1, 1), 100); !errors.Is(err, boom) {
		t.Fatalf("read failing: %v, want %v", err, boom)
	}
	f.err = nil
	f.mustBook(t, f.stay(1, 1), 100, 0)
	f.wantReads(t, 2, "after a failed read")
}

// A quote whose context ends while it waits for a shared read returns at once with
// the context's error; the read goes on for the others and is kept.
func TestOccupancyCopyCancelledWhileWaiting(t *testing.T) {
	f := newFakeOccupancy(t, noon)
	f.gated()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, _, err := f.c.booked(ctx, f.stay(1, 1), 100)
		done <- err
	}()
	<-f.began
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled while waiting: %v, want context.Canceled", err)
	}
	if _, ok := f.ctx.Deadline(); !ok || f.ctx.Err() != nil {
		t.Fatalf("the shared read's context: deadline set %v, err %v; want bounded and not cancelled", ok, f.ctx.Err())
	}
	close(f.gate)
	f.mustBook(t, f.stay(1, 1), 100, 0) // waits for the same read, or finds it kept
	f.wantReads(t, 1, "after the cancelled quote")
}

// A read that began before a drop (a booking committed meanwhile) still answers the
// quotes that were waiting for it, but is not kept, and quotes after the drop do not
// wait for it.
func TestOccupancyCopyDroppedDuringRead(t *testing.T) {
	f := newFakeOccupancy(t, noon)
	f.gated()
	first := make(chan []int, 1)
	go func() {
		got, _, _ := f.c.booked(context.Background(), f.stay(1, 1), 100)
		first <- got
	}()
	<-f.began
	f.booked.Store(1) // the booking's commit
	f.c.drop()        // its AfterCommit
	second := make(chan []int, 1)
	go func() {
		got, _, _ := f.c.booked(context.Background(), f.stay(1, 1), 100)
		second <- got
	}()
	<-f.began // the quote after the drop reads again
	close(f.gate)
	if got := <-first; len(got) != 1 {
		t.Fatalf("quote waiting before the drop: %v", got)
	}
	if got := <-second; len(got) != 1 || got[0] != 1 {
		t.Fatalf("quote after the drop: %v, want [1]", got)
	}
	f.gate = nil
	f.mustBook(t, f.stay(1, 1), 100, 1)
	f.wantReads(t, 2, "drop during a read")
}
