package notify

import (
	"math/rand/v2"
	"time"
)

// Backoff gives the delay before the next attempt after the failed attempt number
// attempt (1 for the first).
type Backoff func(attempt int) time.Duration

// Exponential doubles from base up to max per attempt, and spreads each delay by
// ±jitter (0.2 = ±20 %) so that many rows failing together do not retry together.
func Exponential(base, max time.Duration, jitter float64) Backoff {
	return func(attempt int) time.Duration {
		d := base
		for i := 1; i < attempt && d < max; i++ {
			d *= 2
		}
		if d > max {
			d = max
		}
		if jitter > 0 {
			d = time.Duration(float64(d) * (1 - jitter + 2*jitter*rand.Float64()))
		}
		return d
	}
}

// Default retry policy (docs/notifications.md#delivery: at least 8 attempts over at least 6 hours).
// Sixteen attempts with delays of 1, 2, 4 … 128 minutes and then 4 hours between
// them: about 32 hours from the first attempt to the last, never less than 25 h 48
// min with the jitter at its lowest, so a webhook (or the n8n host behind it) that
// is down for a whole day still gets every email once it is back.
const (
	DefaultMaxAttempts = 16
	DefaultBackoffBase = time.Minute
	DefaultBackoffMax  = 4 * time.Hour
	DefaultJitter      = 0.2
)

// DefaultBackoff is the production retry schedule.
func DefaultBackoff() Backoff {
	return Exponential(DefaultBackoffBase, DefaultBackoffMax, DefaultJitter)
}

// maxRetryAfter bounds how long a receiver's Retry-After may push a retry.
const maxRetryAfter = 6 * time.Hour
