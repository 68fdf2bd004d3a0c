package ui

import "time"

// SetSSETiming shortens the live feed's heartbeat and lifetime for a test; the
// returned function restores them.
func SetSSETiming(heartbeat, lifetime time.Duration) (restore func()) {
	h, l := sseHeartbeat, sseMaxLifetime
	sseHeartbeat, sseMaxLifetime = heartbeat, lifetime
	return func() { sseHeartbeat, sseMaxLifetime = h, l }
}
