package clock_test

import (
	"sync"
	"testing"
	"time"

	"parking/internal/clock"
)

// Real is UTC at the databases' precision, as the store writes it.
func TestReal(t *testing.T) {
	now := clock.Real()
	if now.Location() != time.UTC || now.Nanosecond()%1000 != 0 {
		t.Errorf("Real() = %v, want UTC truncated to microseconds", now)
	}
}

// A fake stands still until set or advanced, normalises like Real, and is safe
// for concurrent use (run with -race).
func TestFake(t *testing.T) {
	madrid, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2027, 6, 30, 23, 59, 0, 1500, madrid)
	f := clock.NewFake(start)
	var c clock.Clock = f.Now
	if got := c(); !got.Equal(start.Truncate(time.Microsecond)) || got.Location() != time.UTC || got.Nanosecond() != 1000 {
		t.Fatalf("Now() = %v, want %v in UTC, microseconds", got, start)
	}
	if c() != c() {
		t.Error("a fake clock moved by itself")
	}
	if got := f.Advance(2 * time.Minute); !got.Equal(start.Add(2*time.Minute).Truncate(time.Microsecond)) || !f.Now().Equal(got) {
		t.Errorf("Advance = %v, Now = %v", got, f.Now())
	}
	f.Set(start)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				f.Advance(time.Second)
				_ = f.Now()
			}
		}()
	}
	wg.Wait()
	if got, want := f.Now(), start.Add(800*time.Second).Truncate(time.Microsecond); !got.Equal(want) {
		t.Errorf("after 800 concurrent one-second steps: %v, want %v", got, want)
	}
}
