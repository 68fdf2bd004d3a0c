package store

// GroupedCalls exposes the group-commit counter to the external tests.
func GroupedCalls() int64 { return groupedCalls.Load() }
