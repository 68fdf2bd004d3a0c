package httpx

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

type ctxKey string

// waitDone waits for ctx's Done, failing after a generous bound.
func waitDone(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: Done not closed", what)
	}
}

// The request's deadline context (withDBDeadline) starts no timer while nothing
// waits on it, and otherwise behaves as context.WithDeadline: Done closes at the
// deadline, Err follows, values and children pass through, and it ends with the
// request (docs/performance.md#request-middleware).
func TestDBDeadlineContext(t *testing.T) {
	parent := context.WithValue(context.Background(), ctxKey("k"), "v")

	t.Run("no timer until something waits", func(t *testing.T) {
		ctx, end := withDBDeadline(parent, time.Hour)
		defer end()
		c := ctx.(*deadlineCtx)
		if d, ok := ctx.Deadline(); !ok || time.Until(d) < 59*time.Minute {
			t.Fatalf("Deadline %v %v, want an hour ahead", d, ok)
		}
		if ctx.Err() != nil || ctx.Value(ctxKey("k")) != "v" {
			t.Fatalf("Err %v, Value %v", ctx.Err(), ctx.Value(ctxKey("k")))
		}
		if c.set.Load() {
			t.Fatal("Deadline, Err and Value started the timer")
		}
		select {
		case <-ctx.Done():
			t.Fatal("Done closed an hour ahead of its deadline")
		default:
		}
		if !c.set.Load() || c.timed == nil {
			t.Fatal("Done did not start the timer")
		}
		if ctx.Value(ctxKey("k")) != "v" {
			t.Fatal("the value is lost once the timer runs")
		}
	})

	t.Run("Done closes at the deadline", func(t *testing.T) {
		ctx, end := withDBDeadline(parent, 20*time.Millisecond)
		defer end()
		waitDone(t, ctx, "deadline of 20 ms")
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Fatalf("Err %v, want DeadlineExceeded", ctx.Err())
		}
	})

	t.Run("Err past the deadline without Done", func(t *testing.T) {
		ctx, end := withDBDeadline(parent, -time.Second)
		defer end()
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Fatalf("Err %v, want DeadlineExceeded", ctx.Err())
		}
		waitDone(t, ctx, "past deadline")
	})

	t.Run("a child is cancelled at the deadline", func(t *testing.T) {
		ctx, end := withDBDeadline(parent, 20*time.Millisecond)
		defer end()
		child, cancel := context.WithCancel(ctx)
		defer cancel()
		after := make(chan struct{})
		stop := context.AfterFunc(ctx, func() { close(after) })
		defer stop()
		waitDone(t, child, "child")
		if !errors.Is(child.Err(), context.DeadlineExceeded) || child.Value(ctxKey("k")) != "v" {
			t.Fatalf("child Err %v Value %v", child.Err(), child.Value(ctxKey("k")))
		}
		select {
		case <-after:
		case <-time.After(10 * time.Second):
			t.Fatal("AfterFunc not run at the deadline")
		}
	})

	t.Run("a cancelled parent", func(t *testing.T) {
		for _, wait := range []bool{false, true} {
			p, cancelParent := context.WithCancel(parent)
			ctx, end := withDBDeadline(p, time.Hour)
			if wait {
				_ = ctx.Done() // the timer runs before the parent goes
			}
			cancelParent()
			if !errors.Is(ctx.Err(), context.Canceled) {
				t.Fatalf("started %v: Err %v, want Canceled", wait, ctx.Err())
			}
			waitDone(t, ctx, "cancelled parent")
			end()
		}
	})

	t.Run("ended with the request", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			d      time.Duration
			parent bool // the parent cancelled first
			wait   bool // something waited before the end
			want   error
		}{
			{"unstarted", time.Hour, false, false, context.Canceled},
			{"started", time.Hour, false, true, context.Canceled},
			{"unstarted past its deadline", -time.Second, false, false, context.DeadlineExceeded},
			{"unstarted, parent cancelled", time.Hour, true, false, context.Canceled},
		} {
			p, cancelParent := context.WithCancel(parent)
			ctx, end := withDBDeadline(p, tc.d)
			if tc.wait {
				_ = ctx.Done()
			}
			if tc.parent {
				cancelParent()
			}
			end()
			waitDone(t, ctx, tc.name)
			if !errors.Is(ctx.Err(), tc.want) {
				t.Errorf("%s: Err %v, want %v", tc.name, ctx.Err(), tc.want)
			}
			if ctx.Value(ctxKey("k")) != "v" {
				t.Errorf("%s: value lost", tc.name)
			}
			child, cancel := context.WithCancel(ctx) // a child of an ended context is born cancelled
			if child.Err() == nil {
				t.Errorf("%s: child of an ended context not cancelled", tc.name)
			}
			cancel()
			cancelParent()
		}
	})

	t.Run("an earlier parent deadline", func(t *testing.T) {
		p, cancel := context.WithTimeout(parent, time.Minute)
		defer cancel()
		ctx, end := withDBDeadline(p, time.Hour)
		defer end()
		pd, _ := p.Deadline()
		if d, _ := ctx.Deadline(); !d.Equal(pd) {
			t.Fatalf("Deadline %v, want the parent's %v", d, pd)
		}
	})

	t.Run("concurrent use", func(t *testing.T) {
		ctx, end := withDBDeadline(parent, 30*time.Millisecond)
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				_ = ctx.Value(ctxKey("k"))
				_ = ctx.Err()
				if i%2 == 0 {
					<-ctx.Done()
				}
			})
		}
		wg.Wait()
		end()
		if ctx.Err() == nil {
			t.Fatal("Err nil after the deadline and the end")
		}
	})
}

// Through the middleware: a handler that waits on its request's context (as the
// database drivers do) is stopped at the deadline, and the context is cancelled
// once the handler has returned.
func TestDBDeadlineStopsWaiting(t *testing.T) {
	var kept context.Context
	h := DBDeadline(20 * time.Millisecond)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		waitDone(t, r.Context(), "handler")
		if !errors.Is(r.Context().Err(), context.DeadlineExceeded) {
			t.Errorf("Err %v, want DeadlineExceeded", r.Context().Err())
		}
		kept = r.Context()
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))

	var idle context.Context
	h = DBDeadline(time.Hour)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { idle = r.Context() }))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	if kept.Err() == nil || idle.Err() == nil {
		t.Fatalf("contexts after the request: %v, %v; want both ended", kept.Err(), idle.Err())
	}
	waitDone(t, idle, "ended request")
}
