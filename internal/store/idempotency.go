package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// IdempotencyRecord is a stored Idempotency-Key (docs/public-booking.md#retries-idempotency-key): the hash of the body
// it came with and, once done, the answer that request got.
type IdempotencyRecord struct {
	Done        bool
	BodyHash    string
	Status      int
	ContentType string
	Location    string
	Body        string
	CreatedAt   time.Time
}

// ClaimIdempotencyKey claims (route, key) for a request with this body hash: it
// deletes every key created before expiredBefore (they no longer count), then
// inserts the key as running. claimed is true when this request now owns the key
// (a new key, or a running one created before staleBefore: its request died
// without finishing or releasing it); otherwise rec is the stored key.
func (tx IdempotencyTx) ClaimIdempotencyKey(ctx context.Context, route, key, bodyHash string, expiredBefore, staleBefore time.Time) (claimed bool, rec IdempotencyRecord, err error) {
	if _, err := tx.Exec(ctx, `DELETE FROM idempotency_key WHERE created_at < $1`, Time(expiredBefore)); err != nil {
		return false, rec, fmt.Errorf("prune idempotency keys: %w", err)
	}
	res, err := tx.Exec(ctx, `INSERT INTO idempotency_key (route, idem_key, body_hash, state, created_at)
		VALUES ($1, $2, $3, 'running', $4) ON CONFLICT DO NOTHING`, route, key, bodyHash, tx.Now)
	if err != nil {
		return false, rec, fmt.Errorf("claim idempotency key: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err == nil, rec, err
	}
	var state string
	var status sql.NullInt64
	var ctype, loc, body nullString
	if err := tx.QueryRow(ctx, `SELECT state, body_hash, status, content_type, location, body, created_at
		FROM idempotency_key WHERE route = $1 AND idem_key = $2`, route, key).
		Scan(&state, &rec.BodyHash, &status, &ctype, &loc, &body, &rec.CreatedAt); err != nil {
		return false, rec, fmt.Errorf("read idempotency key: %w", err)
	}
	rec.Done, rec.Status, rec.CreatedAt = state == "done", int(status.Int64), rec.CreatedAt.UTC()
	rec.ContentType, rec.Location, rec.Body = ctype.String, loc.String, body.String
	if rec.Done || !rec.CreatedAt.Before(staleBefore) {
		return false, rec, nil
	}
	res, err = tx.Exec(ctx, `UPDATE idempotency_key SET body_hash = $3, created_at = $4
		WHERE route = $1 AND idem_key = $2 AND state = 'running' AND created_at < $5`, route, key, bodyHash, tx.Now, Time(staleBefore))
	if err != nil {
		return false, rec, fmt.Errorf("take over idempotency key: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, rec, err
}

// FinishIdempotencyKey stores the answer of the request that claimed (route, key),
// in that request's transaction.
func (tx IdempotencyTx) FinishIdempotencyKey(ctx context.Context, route, key string, status int, contentType, location, body string) error {
	res, err := tx.Exec(ctx, `UPDATE idempotency_key SET state = 'done', status = $3, content_type = $4, location = $5, body = $6
		WHERE route = $1 AND idem_key = $2 AND state = 'running'`, route, key, status, contentType, location, body)
	if err != nil {
		return fmt.Errorf("finish idempotency key: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("finish idempotency key: the key is not running (%d rows, %v)", n, err)
	}
	return nil
}

// ReleaseIdempotencyKey forgets a running key whose request failed: the same key
// may be sent again.
func (tx IdempotencyTx) ReleaseIdempotencyKey(ctx context.Context, route, key string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM idempotency_key WHERE route = $1 AND idem_key = $2 AND state = 'running'`, route, key); err != nil {
		return fmt.Errorf("release idempotency key: %w", err)
	}
	return nil
}
