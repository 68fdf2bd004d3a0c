package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// tuneGC sets GOGC 800 and a 256 MiB soft limit, but never overrides an operator's
// GOGC or GOMEMLIMIT.
func TestTuneGC(t *testing.T) {
	restorePercent, restoreLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	defer func() { debug.SetGCPercent(restorePercent); debug.SetMemoryLimit(restoreLimit) }()

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	tuneGC()
	if p, l := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64); p != gcPercent || l != gcMemoryLimit {
		t.Errorf("unset environment: GOGC %d, limit %d; want %d, %d", p, l, gcPercent, gcMemoryLimit)
	}

	t.Setenv("GOGC", "50")
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetGCPercent(50)
	debug.SetMemoryLimit(1 << 30)
	tuneGC()
	if p, l := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64); p != 50 || l != 1<<30 {
		t.Errorf("operator's settings overridden: GOGC %d, limit %d", p, l)
	}
}
