package database

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Signals between instances (several processes of the service on one PostgreSQL):
// what one instance keeps in memory and another must hear about — the live
// parking board's events, a changed catalog — is sent with NOTIFY on one channel
// and received by every instance's LISTEN connection, the sender's included. On
// SQLite there is one process; Shared is false and nothing is sent.
//
// The channel is named after the schema the store works in, so that services (or
// tests) sharing a database in different schemas do not hear each other.

// Shared reports whether several instances may share this database, so that
// in-process state must be announced with Signal and learnt with Listen.
func (s *Engine) Shared() bool { return s.dialect == Postgres }

// signalChannel names the NOTIFY channel: "parking:" and the current schema.
func signalChannel(ctx context.Context, q *sql.DB) (string, error) {
	var schema string
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(current_schema(), 'public')`).Scan(&schema); err != nil {
		return "", fmt.Errorf("current schema: %w", err)
	}
	return "parking:" + schema, nil
}

// Signal sends payload to every instance listening (PostgreSQL's NOTIFY: delivered
// to all listeners, in order, at most 8000 bytes). On SQLite it does nothing.
func (s *Engine) Signal(ctx context.Context, payload string) error {
	if !s.Shared() {
		return nil
	}
	if _, err := s.write.ExecContext(ctx, `SELECT pg_notify($1, $2)`, s.channel, payload); err != nil {
		return fmt.Errorf("signal other instances: %w", err)
	}
	return nil
}

// Listen receives the signals of every instance, this one's included, on a
// connection of its own, until ctx ends. connected is called each time listening
// (re)starts, before any payload that follows: signals sent while the connection
// was down are lost, so the caller resynchronises there (drops live streams,
// reloads what it caches). A lost connection is reopened with a growing pause (the
// pauses are real time: they wait for the database, whatever the clock says).
func (s *Engine) Listen(ctx context.Context, log *slog.Logger, connected func(), handle func(payload string)) error {
	if !s.Shared() {
		return errors.New("listen: only PostgreSQL is shared between instances")
	}
	pause := 100 * time.Millisecond
	for {
		err := s.listenOnce(ctx, connected, handle)
		if ctx.Err() != nil {
			return nil
		}
		log.Warn("listening for other instances' changes failed; reconnecting", "err", err, "in", pause.String())
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
		pause = min(2*pause, 5*time.Second)
	}
}

func (s *Engine) listenOnce(ctx context.Context, connected func(), handle func(payload string)) error {
	conn, err := pgx.Connect(ctx, s.pgURL)
	if err != nil {
		return err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = conn.Close(cctx)
	}()
	if _, err := conn.Exec(ctx, `LISTEN "`+strings.ReplaceAll(s.channel, `"`, `""`)+`"`); err != nil {
		return err
	}
	connected()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		handle(n.Payload)
	}
}
