package database

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// SQLite appends every commit to its WAL file and copies the WAL back into the
// database file in a checkpoint. By default the committing connection checkpoints
// itself once the WAL holds 1,000 pages: under the booking load that was every few
// group commits, each one copying hundreds of pages and syncing the file (the only
// fsyncs under NORMAL) on the writer goroutine, the one every write waits for. So a
// connection of its own runs a PASSIVE checkpoint every Checkpoints.Every: it copies
// what has been committed, never waits for the writer nor makes it wait, and syncs
// the file off the writer's path (docs/performance.md#sqlite-checkpoints-off-the-writer).
//
// The WAL starts over from its beginning only when a write transaction begins with
// all of it copied, which a steady stream of commits rarely leaves time for. The
// writer's own checkpoint, at the end of a commit once the WAL holds WriterPages
// pages, leaves it all copied (nothing is committed while it runs): it bounds the
// file. Most of the pages are copied by then, so it is short; the background
// checkpoints pause when they find the WAL that long, so as not to hold the
// checkpoint lock when the writer asks for it (a PASSIVE checkpoint that finds the
// lock taken gives up until the next commit).

// Checkpoints tunes SQLite's checkpoints (Options.Checkpoints); zero fields take the
// defaults.
type Checkpoints struct {
	// Every is the period of the background checkpoint. Default 20 ms; negative:
	// none, the writer checkpoints alone.
	Every time.Duration
	// WriterPages is the WAL size, in pages, at which the writer checkpoints itself at
	// the end of a commit. Default 10,000 (about 40 MB); with no background
	// checkpoint, 1,000 (SQLite's own default).
	WriterPages int
}

func (c Checkpoints) withDefaults() Checkpoints {
	if c.Every == 0 {
		c.Every = 20 * time.Millisecond
	}
	if c.WriterPages <= 0 {
		c.WriterPages = 10000
		if c.Every < 0 {
			c.WriterPages = 1000
		}
	}
	return c
}

// checkpointer runs the background checkpoints on its own connection until stop.
type checkpointer struct {
	db      *sql.DB
	every   time.Duration
	bound   int // Checkpoints.WriterPages
	stop    chan struct{}
	stopped chan struct{}
	log     *slog.Logger
}

func startCheckpointer(db *sql.DB, opt Checkpoints) *checkpointer {
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	c := &checkpointer{db: db, every: opt.Every, bound: opt.WriterPages, stop: make(chan struct{}), stopped: make(chan struct{}), log: slog.Default()}
	go c.loop()
	return c
}

func (c *checkpointer) loop() {
	defer close(c.stopped)
	tick := time.NewTicker(c.every)
	defer tick.Stop()
	var lastWarned time.Time
	for {
		select {
		case <-c.stop:
			return
		case <-tick.C:
		}
		pages, err := c.checkpoint(context.Background())
		// Busy: another checkpoint (the writer's own, another instance's) is running.
		if err != nil && !isBusy(err) && time.Since(lastWarned) > time.Minute {
			lastWarned = time.Now()
			c.log.Warn("SQLite background checkpoint failed; the writer still checkpoints itself", "err", err)
		}
		if pages >= c.bound {
			// The writer's turn: its own checkpoint, at the end of its next commit,
			// copies what is left and the WAL starts over; one of ours running at that
			// moment would make it give up until the commit after.
			select {
			case <-c.stop:
				return
			case <-time.After(restartPause):
			}
		}
	}
}

// checkpoint runs a PASSIVE checkpoint, which copies the committed part of the WAL
// into the database file, and returns the pages in the WAL. It reports SQLITE_BUSY in
// its result row, not as an error, when another checkpoint holds the lock: that is
// returned as errCheckpointBusy.
func (c *checkpointer) checkpoint(ctx context.Context) (int, error) {
	var busy, walPages, copied int
	if err := c.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &walPages, &copied); err != nil {
		return 0, err
	}
	if busy != 0 {
		return walPages, errCheckpointBusy
	}
	return walPages, nil
}

var errCheckpointBusy = errors.New("checkpoint busy")

// restartPause is how long the background checkpoints leave the writer alone once
// the WAL holds Checkpoints.WriterPages pages.
const restartPause = 100 * time.Millisecond

func isBusy(err error) bool {
	if errors.Is(err, errCheckpointBusy) {
		return true
	}
	var se *sqlite.Error
	return errors.As(err, &se) && (se.Code()&0xff == sqlite3.SQLITE_BUSY || se.Code()&0xff == sqlite3.SQLITE_LOCKED)
}

// close stops the loop and closes the connection, so that the last connection to
// close (the engine's) can checkpoint and remove the WAL.
func (c *checkpointer) close() error {
	close(c.stop)
	<-c.stopped
	return c.db.Close()
}
