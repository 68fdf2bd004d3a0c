package database_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"parking/internal/database"
)

// openLite opens a migrated SQLite engine on a file of the test's own, with a table
// to fill.
func openLite(t *testing.T, path string, opts database.Options) *database.Engine {
	t.Helper()
	e, err := database.OpenWith(context.Background(), "sqlite:"+path, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := e.WriteDB().Exec(`CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, k TEXT UNIQUE, body BLOB)`); err != nil {
		t.Fatal(err)
	}
	return e
}

// fill commits n transactions of a few pages each (a random-looking unique key, as a
// booking's reference or phone, and a 3 KB body), from four goroutines at once.
func fill(t *testing.T, e *database.Engine, from, n int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := from + w; i < from+n; i += 4 {
				err := e.InTx(context.Background(), func(tx *database.Tx) error {
					_, err := tx.Exec(context.Background(), `INSERT INTO filler (k, body) VALUES ($1, zeroblob(3000))`, fmt.Sprintf("%x", uint32(i)*2654435761))
					return err
				})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func walPages(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path + "-wal")
	if errors.Is(err, fs.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size() / 4096
}

// The WAL file stays bounded under a steady load, whether the background checkpoints
// keep up (every millisecond) or do not run at all: the writer's own checkpoint at
// WriterPages is the bound (docs/performance.md#sqlite-checkpoints-off-the-writer).
// Every row committed is in the database after it closes and opens again.
func TestCheckpointsBoundTheWAL(t *testing.T) {
	for _, c := range []struct {
		name string
		ck   database.Checkpoints
	}{
		{"background", database.Checkpoints{Every: time.Millisecond, WriterPages: 64}},
		{"writer only", database.Checkpoints{Every: -1, WriterPages: 64}},
		{"defaults", database.Checkpoints{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "wal.db")
			e := openLite(t, path, database.Options{SQLiteSync: database.SyncNormal, Checkpoints: c.ck})
			fill(t, e, 0, 600) // about 1,800 pages of WAL without checkpoints
			pages := walPages(t, path)
			t.Logf("WAL of %d pages after 600 commits", pages)
			if c.ck.WriterPages > 0 && pages > 4*int64(c.ck.WriterPages) {
				t.Errorf("WAL of %d pages after 600 commits, bound %d", pages, c.ck.WriterPages)
			}
			if err := e.Close(); err != nil {
				t.Fatal(err)
			}
			// The last connection to close checkpoints and removes the WAL: the
			// checkpointer's connection is closed with the engine.
			if pages := walPages(t, path); pages != 0 {
				t.Errorf("WAL of %d pages left after Close", pages)
			}
			e = openLite(t, path, database.Options{Checkpoints: c.ck})
			defer e.Close()
			var n int
			var check string
			if err := e.DB().QueryRow(`SELECT COUNT(*) FROM filler`).Scan(&n); err != nil || n != 600 {
				t.Fatalf("%d rows after reopening, want 600 (%v)", n, err)
			}
			if err := e.DB().QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
				t.Fatalf("integrity_check: %q %v", check, err)
			}
		})
	}
}

// A process killed at any moment of its writes and background checkpoints loses no
// committed row and leaves a sound database, under both durability settings: it is
// killed (SIGKILL) after acknowledging a few hundred commits, while it goes on writing.
func TestKilledWhileCheckpointingLosesNothing(t *testing.T) {
	if path := os.Getenv("PARKING_TEST_CHECKPOINT_CHILD"); path != "" {
		checkpointChild(t, path)
		return
	}
	for _, sync := range []database.SQLiteSync{database.SyncFull, database.SyncNormal} {
		t.Run(string(sync), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "killed.db")
			cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWhileCheckpointingLosesNothing$")
			cmd.Env = append(os.Environ(), "PARKING_TEST_CHECKPOINT_CHILD="+path, "PARKING_TEST_CHECKPOINT_SYNC="+string(sync))
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var acked []string
			lines := bufio.NewScanner(out)
			for len(acked) < 400 && lines.Scan() {
				if k, ok := strings.CutPrefix(lines.Text(), "committed "); ok {
					acked = append(acked, k)
				}
			}
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			if len(acked) < 400 {
				t.Fatalf("the writer stopped after %d commits", len(acked))
			}
			e := openLite(t, path, database.Options{SQLiteSync: sync})
			defer e.Close()
			var check string
			if err := e.DB().QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
				t.Fatalf("integrity_check after the kill: %q %v", check, err)
			}
			for _, k := range acked {
				var n int
				if err := e.DB().QueryRow(`SELECT COUNT(*) FROM filler WHERE k = $1`, k).Scan(&n); err != nil || n != 1 {
					t.Fatalf("committed row %s: %d after the kill (%v)", k, n, err)
				}
			}
		})
	}
}

// checkpointChild writes until killed, with background checkpoints every
// millisecond and a small bound for the writer's own, printing each commit once it
// is acknowledged.
func checkpointChild(t *testing.T, path string) {
	e := openLite(t, path, database.Options{SQLiteSync: database.SQLiteSync(os.Getenv("PARKING_TEST_CHECKPOINT_SYNC")),
		Checkpoints: database.Checkpoints{Every: time.Millisecond, WriterPages: 32}})
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; ; i += 4 {
				k := strconv.Itoa(i)
				err := e.InTx(context.Background(), func(tx *database.Tx) error {
					_, err := tx.Exec(context.Background(), `INSERT INTO filler (k, body) VALUES ($1, zeroblob(3000))`, k)
					return err
				})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				fmt.Println("committed", k)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}
