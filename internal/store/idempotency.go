package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"parking/internal/database"
)

// IdempotencyRecord is a stored Idempotency-Key (docs/public-booking.md#retries-idempotency-key):
// the hash of the body it came with and, once done, the answer that request got.
// Running is a key claimed by an earlier version of the service, which wrote the
// key before its booking; the current one writes it with its answer only.
type IdempotencyRecord struct {
	Running     bool
	BodyHash    string
	Status      int
	ContentType string
	Location    string
	Body        string
	CreatedAt   time.Time
}

// ErrKeyTaken is SaveIdempotencyAnswer's refusal: the key was answered by another
// request that committed first (another instance): the transaction must roll back
// and the stored answer be sent instead.
var ErrKeyTaken = errors.New("idempotency key answered by another request")

// Idempotency reads the idempotency keys of retried requests.
type Idempotency struct{ *database.Engine }

// IdempotencyKey reads (route, key); found is false when there is none.
func (s Idempotency) IdempotencyKey(ctx context.Context, route, key string) (rec IdempotencyRecord, found bool, err error) {
	var state string
	var status *int64
	var ctype, loc, body nullString
	err = s.QueryRow(ctx, `SELECT state, body_hash, status, content_type, location, body, created_at
		FROM idempotency_key WHERE route = $1 AND idem_key = $2`, route, key).
		Scan(&state, &rec.BodyHash, &status, &ctype, &loc, &body, &rec.CreatedAt)
	if noRows(err) {
		return rec, false, nil
	}
	if err != nil {
		return rec, false, fmt.Errorf("read idempotency key: %w", err)
	}
	rec.Running, rec.Status, rec.CreatedAt = state == "running", intOr0(status), rec.CreatedAt.UTC()
	rec.ContentType, rec.Location, rec.Body = ctype.String, loc.String, body.String
	return rec, true, nil
}

// QueuedKey is an Idempotency-Key read queued in a write transaction
// (IdempotencyTx.QueueKey): filled once the round trip that carries it is done.
type QueuedKey struct {
	state                  sql.NullString
	hash, ctype, loc, body nullString
	status                 *int64
	createdAt              sql.NullTime
}

// Record is the key as read: found is false when there is none.
func (q *QueuedKey) Record() (rec IdempotencyRecord, found bool) {
	if !q.state.Valid {
		return rec, false
	}
	return IdempotencyRecord{Running: q.state.String == "running", BodyHash: q.hash.String, Status: intOr0(q.status),
		ContentType: q.ctype.String, Location: q.loc.String, Body: q.body.String, CreatedAt: q.createdAt.Time.UTC()}, true
}

// QueueKey queues the read of (route, key) into q with the transaction's next round
// trip (docs/performance.md#the-public-booking-in-two-round-trips): the booking reads
// its key in its first round trip instead of on the pool before the transaction. It
// returns one row whether or not the key exists, so that it never fails its round trip.
func (tx IdempotencyTx) QueueKey(ctx context.Context, route, key string, q *QueuedKey) error {
	return tx.Queue(ctx, database.Stmt{Query: `SELECT k.state, k.body_hash, k.status, k.content_type, k.location, k.body, k.created_at
		FROM (SELECT 1) one LEFT JOIN idempotency_key k ON k.route = $1 AND k.idem_key = $2`,
		Args: []any{route, key},
		Dest: []any{&q.state, &q.hash, &q.status, &q.ctype, &q.loc, &q.body, &q.createdAt},
		What: "read idempotency key"})
}

func intOr0(p *int64) int {
	if p == nil {
		return 0
	}
	return int(*p)
}

// PruneIdempotencyKeys deletes the keys created before expiredBefore: they no
// longer count (a key older than that is overwritten by a new request anyway).
func (s Idempotency) PruneIdempotencyKeys(ctx context.Context, expiredBefore time.Time) (int64, error) {
	var n int64
	err := inTx(ctx, s.Engine, func(tx *Tx) error {
		res, err := tx.Exec(ctx, `DELETE FROM idempotency_key WHERE created_at < $1`, Time(expiredBefore))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("prune idempotency keys: %w", err)
	}
	return n, nil
}

// SaveIdempotencyAnswer stores the answer of the request with (route, key) and the
// body hash, in that request's own transaction, so that the key and the booking
// commit together. A row already there counts only when it is younger than
// expiredBefore and, if left running by an earlier version, younger than
// staleBefore; otherwise it is overwritten. A row that counts is ErrKeyTaken.
func (tx IdempotencyTx) SaveIdempotencyAnswer(ctx context.Context, route, key, bodyHash string, status int, contentType, location, body string, expiredBefore, staleBefore time.Time) error {
	const save = `INSERT INTO idempotency_key (route, idem_key, body_hash, state, status, content_type, location, body, created_at)
		VALUES ($1, $2, $3, 'done', $4, $5, $6, $7, $8)
		ON CONFLICT (route, idem_key) DO UPDATE SET body_hash = excluded.body_hash, state = 'done', status = excluded.status,
			content_type = excluded.content_type, location = excluded.location, body = excluded.body, created_at = excluded.created_at
		WHERE idempotency_key.created_at < $9 OR (idempotency_key.state = 'running' AND idempotency_key.created_at < $10)`
	args := []any{route, key, bodyHash, status, contentType, location, body, tx.Now, Time(expiredBefore), Time(staleBefore)}
	if tx.Dialect() == Postgres {
		// Queued, and refused inside the database (migration 0035): the transaction
		// fails with ErrKeyTaken in whichever round trip carries it, the COMMIT's
		// included (docs/performance.md#the-public-booking-in-two-round-trips).
		return tx.Queue(ctx, database.Stmt{Query: `WITH w AS (` + save + ` RETURNING 1)
			SELECT refuse_unless(EXISTS (SELECT 1 FROM w), '` + keyTakenCode + `', 'idempotency key taken')`,
			Args: args,
			Refused: func(pe *pgconn.PgError) error {
				if pe.Code == keyTakenCode {
					return ErrKeyTaken
				}
				return nil
			},
			What: "save idempotency key"})
	}
	return tx.Queue(ctx, database.Stmt{Query: save, Args: args,
		Check: func(n int64) error {
			if n != 1 {
				return ErrKeyTaken
			}
			return nil
		},
		What: "save idempotency key"})
}

// keyTakenCode is the SQLSTATE of a key answered by another request, raised by
// SaveIdempotencyAnswer's statement on PostgreSQL.
const keyTakenCode = "PK002"
