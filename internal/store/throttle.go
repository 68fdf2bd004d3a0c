package store

import (
	"context"
	"fmt"
	"time"
)

// ThrottleFailures lists, newest first, the failed attempts (logins, booking
// lookups, claims) recorded since `since` for each of the given throttling keys
// (hashes; each throttle prefixes its keys, so their counts never mix).
func (s Accounts) ThrottleFailures(ctx context.Context, since time.Time, keyHashes ...string) (map[string][]time.Time, error) {
	out := make(map[string][]time.Time, len(keyHashes))
	for _, k := range keyHashes {
		rows, err := s.Query(ctx, `SELECT failed_at FROM throttle_failure
			WHERE key_hash = $1 AND failed_at > $2 ORDER BY failed_at DESC`, k, Time(since))
		if err != nil {
			return nil, fmt.Errorf("throttle failures: %w", err)
		}
		var list []time.Time
		for rows.Next() {
			var t time.Time
			if err := rows.Scan(&t); err != nil {
				rows.Close()
				return nil, fmt.Errorf("throttle failures: %w", err)
			}
			list = append(list, t.UTC())
		}
		if err := closeRows(rows); err != nil {
			return nil, fmt.Errorf("throttle failures: %w", err)
		}
		out[k] = list
	}
	return out, nil
}

// RecordThrottleFailure records a failed attempt at `at` under each key, and deletes
// every failure older than pruneBefore (they no longer count for anyone).
func (tx AccountsTx) RecordThrottleFailure(ctx context.Context, at, pruneBefore time.Time, keyHashes ...string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM throttle_failure WHERE failed_at < $1`, Time(pruneBefore)); err != nil {
		return fmt.Errorf("prune throttle failures: %w", err)
	}
	for _, k := range keyHashes {
		if _, err := tx.Exec(ctx, `INSERT INTO throttle_failure (key_hash, failed_at) VALUES ($1, $2)`, k, Time(at)); err != nil {
			return fmt.Errorf("record throttle failure: %w", err)
		}
	}
	return nil
}

// ClearThrottleFailures forgets the failures recorded under a key (after a successful login).
func (tx AccountsTx) ClearThrottleFailures(ctx context.Context, keyHash string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM throttle_failure WHERE key_hash = $1`, keyHash); err != nil {
		return fmt.Errorf("clear throttle failures: %w", err)
	}
	return nil
}
