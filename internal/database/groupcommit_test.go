package database_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"parking/internal/database"
	"parking/internal/store"
	"parking/internal/storetest"
)

// The failure cases of SQLite's group commit (groupcommit.go), one test each. On
// SQLite the calls of a test are queued behind a call that holds the writer, one by
// one, so that they run as ONE batch in a known order (each test checks they shared
// one database transaction, or it would prove nothing). The tests that hold for any
// InTx also run on PostgreSQL, where every call is its own transaction.

// call is one InTx call of a test batch and what became of it.
type call struct {
	ctx context.Context // Background when nil
	fn  func(ctx context.Context, tx *store.Tx) error

	ran      atomic.Bool // fn started
	err      error
	panicked any
	tx       *sql.Tx // the database transaction fn ran in
	acked    atomic.Bool
	done     chan struct{}
}

func (c *call) run(st *store.Store) {
	defer close(c.done)
	defer func() { c.panicked = recover() }()
	ctx := c.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	c.err = st.InTx(ctx, func(tx *store.Tx) error {
		c.ran.Store(true)
		c.tx = database.SQLTx(tx.Tx)
		tx.AfterCommit(func() { c.acked.Store(true) })
		return c.fn(ctx, tx)
	})
}

// wait waits for c to return; a call that does not return within a minute fails the
// test instead of hanging it.
func (c *call) wait(t *testing.T, name string) {
	t.Helper()
	select {
	case <-c.done:
	case <-time.After(time.Minute):
		t.Fatalf("call %s never returned", name)
	}
}

// queue holds st's writer with a call of its own, then queues calls behind it one by
// one and returns the function that lets them run. On SQLite they then run as one
// batch (up to the store's MaxBatch), in order; on PostgreSQL they already run.
func queue(t *testing.T, st *store.Store, calls ...*call) (release func()) {
	t.Helper()
	hold, holding := make(chan struct{}), make(chan struct{})
	holder := &call{done: make(chan struct{}), fn: func(context.Context, *store.Tx) error {
		close(holding)
		<-hold
		return nil
	}}
	go holder.run(st)
	<-holding
	for i, c := range calls {
		c.done = make(chan struct{})
		go c.run(st)
		database.WaitQueued(st.Engine, i+1)
	}
	return func() {
		close(hold)
		holder.wait(t, "holder")
		if holder.err != nil {
			t.Errorf("holder: %v", holder.err)
		}
	}
}

func runBatch(t *testing.T, st *store.Store, calls ...*call) {
	t.Helper()
	queue(t, st, calls...)()
	for i, c := range calls {
		c.wait(t, fmt.Sprint(i))
	}
}

// oneTransaction fails the test unless, on SQLite, the calls ran in one database
// transaction: the condition of every group-commit test.
func oneTransaction(t *testing.T, d store.Dialect, calls ...*call) {
	t.Helper()
	if d != store.SQLite {
		return
	}
	for i, c := range calls[1:] {
		if c.tx == nil || c.tx != calls[0].tx {
			t.Fatalf("calls 0 and %d did not share a transaction: the test exercised no group commit", i+1)
		}
	}
}

func customersWithPhone(t *testing.T, st *store.Store, phone string) []int64 {
	t.Helper()
	rows, err := st.DB().QueryContext(context.Background(), `SELECT id_customer FROM customer WHERE phone = $1`, phone)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}

// A call that fails after writing — by returning an error, by panicking, or because
// its context was cancelled while it ran — gets its own failure and leaves no row;
// the call after it in the same transaction does not see its rows (a find-or-create
// of the same phone creates the customer anew, and that one is what commits), and
// neither that call nor any other is affected.
func TestGroupCommitFailedCallIsolated(t *testing.T) {
	errRefused := errors.New("refused")
	for _, kind := range []string{"error", "panic", "cancelled while running"} {
		t.Run(strings.ReplaceAll(kind, " ", "_"), func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, d store.Dialect) {
				st := openGrouped(t, d)
				const phone, other = "600000001", "600000002"
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var aCreated bool
				a := &call{ctx: ctx, fn: func(ctx context.Context, tx *store.Tx) error {
					_, created, err := tx.Customers().FindOrCreateCustomerByPhone(ctx, store.NewCustomer{FullName: "A", Phone: phone})
					if err != nil {
						return err
					}
					aCreated = created
					switch kind {
					case "error":
						return errRefused
					case "panic":
						panic("boom")
					}
					cancel()
					return nil
				}}
				var bID int64
				var bCreated bool
				b := &call{fn: func(ctx context.Context, tx *store.Tx) error {
					c, created, err := tx.Customers().FindOrCreateCustomerByPhone(ctx, store.NewCustomer{FullName: "B", Phone: phone})
					bID, bCreated = c.ID, created
					return err
				}}
				c := &call{fn: func(ctx context.Context, tx *store.Tx) error {
					_, _, err := tx.Customers().FindOrCreateCustomerByPhone(ctx, store.NewCustomer{FullName: "C", Phone: other})
					return err
				}}
				runBatch(t, st, a, b, c)
				oneTransaction(t, d, a, b, c)

				switch kind {
				case "error":
					if !errors.Is(a.err, errRefused) || a.panicked != nil {
						t.Errorf("failing call: err %v, panic %v; want its own error", a.err, a.panicked)
					}
				case "panic":
					if a.panicked != "boom" {
						t.Errorf("failing call: err %v, panic %v; want its own panic", a.err, a.panicked)
					}
				default:
					if !errors.Is(a.err, context.Canceled) || a.panicked != nil {
						t.Errorf("cancelled call: err %v, panic %v; want context.Canceled", a.err, a.panicked)
					}
				}
				if a.acked.Load() || d == store.SQLite && !aCreated { // (on PostgreSQL, B may run first)
					t.Errorf("failing call: created %v, acknowledged %v; want created, then not acknowledged", aCreated, a.acked.Load())
				}
				for name, x := range map[string]*call{"B": b, "C": c} {
					if x.err != nil || x.panicked != nil || !x.acked.Load() {
						t.Errorf("call %s: err %v, panic %v, acknowledged %v; want a plain success", name, x.err, x.panicked, x.acked.Load())
					}
				}
				if !bCreated {
					t.Error("B found a customer: it read the row of a call that did not commit")
				}
				if ids := customersWithPhone(t, st, phone); len(ids) != 1 || ids[0] != bID {
					t.Errorf("customers with the phone: %v, want only B's %d", ids, bID)
				}
				if ids := customersWithPhone(t, st, other); len(ids) != 1 {
					t.Errorf("C's customer: %v, want one", ids)
				}
			})
		})
	}
}

// A failed COMMIT fails every call of the batch, none is acknowledged and none of
// their rows exists, including a call that had read another call's rows (B found
// A's new customer, uncommitted then): B's answer is never given. The store keeps
// serving afterwards. The COMMIT fails for real: C writes a row that breaks a
// deferred foreign key, which SQLite and PostgreSQL check only at COMMIT.
func TestGroupCommitFailedCommit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := openGrouped(t, d)
		bg := context.Background()
		if err := st.InTx(bg, func(tx *store.Tx) error {
			_, err := tx.Exec(bg, `CREATE TABLE commit_check (id_customer INTEGER REFERENCES customer (id_customer) DEFERRABLE INITIALLY DEFERRED)`)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		const phone = "600000003"
		var aID, bID int64
		var bCreated bool
		a := &call{fn: func(ctx context.Context, tx *store.Tx) error {
			c, _, err := tx.Customers().FindOrCreateCustomerByPhone(ctx, store.NewCustomer{FullName: "A", Phone: phone})
			aID = c.ID
			return err
		}}
		b := &call{fn: func(ctx context.Context, tx *store.Tx) error {
			c, created, err := tx.Customers().FindOrCreateCustomerByPhone(ctx, store.NewCustomer{FullName: "B", Phone: phone})
			bID, bCreated = c.ID, created
			return err
		}}
		c := &call{fn: func(ctx context.Context, tx *store.Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO commit_check (id_customer) VALUES (999999)`)
			return err
		}}
		runBatch(t, st, a, b, c)
		oneTransaction(t, d, a, b, c)

		if c.err == nil || !strings.Contains(c.err.Error(), "commit") || c.acked.Load() {
			t.Fatalf("C: err %v, acknowledged %v; want a failed commit", c.err, c.acked.Load())
		}
		switch d {
		case store.SQLite:
			if bCreated || bID != aID {
				t.Fatalf("B created %v, id %d, A's id %d: B should have found A's customer in the shared transaction", bCreated, bID, aID)
			}
			for name, x := range map[string]*call{"A": a, "B": b} {
				if x.err == nil || !strings.Contains(x.err.Error(), "commit") || x.acked.Load() || x.panicked != nil {
					t.Errorf("call %s: err %v, acknowledged %v, panic %v; want the commit's failure", name, x.err, x.acked.Load(), x.panicked)
				}
			}
			if ids := customersWithPhone(t, st, phone); len(ids) != 0 {
				t.Errorf("customers %v exist after the failed commit", ids)
			}
		default: // one transaction per call: A and B committed on their own
			if a.err != nil || b.err != nil || !a.acked.Load() || !b.acked.Load() {
				t.Errorf("A: %v, B: %v; want both committed", a.err, b.err)
			}
			if ids := customersWithPhone(t, st, phone); len(ids) != 1 || ids[0] != bID {
				t.Errorf("customers %v, want B's %d", ids, bID)
			}
		}
		var n int
		if err := st.DB().QueryRowContext(bg, `SELECT COUNT(*) FROM commit_check`).Scan(&n); err != nil || n != 0 {
			t.Errorf("commit_check rows: %d, %v; want 0", n, err)
		}
		next := &call{fn: func(ctx context.Context, tx *store.Tx) error {
			_, _, err := tx.Customers().FindOrCreateCustomerByPhone(ctx, store.NewCustomer{FullName: "D", Phone: phone})
			return err
		}}
		runBatch(t, st, next)
		if next.err != nil || len(customersWithPhone(t, st, phone)) != 1 {
			t.Fatalf("after the failed commit: %v", next.err)
		}
	})
}

// A caller whose context is cancelled while its call waits — queued, or taken into
// a batch behind a slow call — returns at once with the context's error; its
// function never runs. A slow call delays the calls that ran before it in its
// transaction (they wait for the COMMIT), and the batch completes when it returns.
// SQLite only: PostgreSQL has no queue.
func TestGroupCommitSlowCallAndCancelledWaiters(t *testing.T) {
	st := storetest.OpenURL(t, storetest.URL(t, store.SQLite), store.Options{GroupCommit: store.GroupCommit{MaxBatchTime: time.Hour}})
	insert := func(phone string) func(context.Context, *store.Tx) error {
		return func(ctx context.Context, tx *store.Tx) error {
			_, _, err := tx.Customers().FindOrCreateCustomerByPhone(ctx, store.NewCustomer{FullName: "X", Phone: phone})
			return err
		}
	}
	started, proceed := make(chan struct{}), make(chan struct{})
	queuedCtx, cancelQueued := context.WithCancel(context.Background())
	behindCtx, cancelBehind := context.WithCancel(context.Background())
	defer cancelQueued()
	defer cancelBehind()
	a := &call{fn: insert("610000001")}
	slow := &call{fn: func(ctx context.Context, tx *store.Tx) error {
		if err := insert("610000002")(ctx, tx); err != nil {
			return err
		}
		close(started)
		<-proceed
		return nil
	}}
	behind := &call{ctx: behindCtx, fn: insert("610000003")}
	b := &call{fn: insert("610000004")}
	release := queue(t, st, a, slow, behind, b)

	// cancelled while queued behind the holder
	queued := &call{ctx: queuedCtx, fn: insert("610000005"), done: make(chan struct{})}
	go queued.run(st)
	database.WaitQueued(st.Engine, 5)
	cancelQueued()
	queued.wait(t, "queued")
	if !errors.Is(queued.err, context.Canceled) || queued.ran.Load() {
		t.Errorf("cancelled while queued: err %v, ran %v; want context.Canceled and never run", queued.err, queued.ran.Load())
	}

	release()
	<-started
	// The slow call runs: A, run before it, waits for the COMMIT; the call taken into
	// the batch behind it leaves as soon as its context is cancelled.
	select {
	case <-a.done:
		t.Fatal("A was answered before its transaction committed")
	default:
	}
	cancelBehind()
	behind.wait(t, "behind")
	if !errors.Is(behind.err, context.Canceled) || behind.ran.Load() {
		t.Errorf("cancelled behind the slow call: err %v, ran %v; want context.Canceled and never run", behind.err, behind.ran.Load())
	}
	close(proceed)
	for name, c := range map[string]*call{"A": a, "slow": slow, "B": b} {
		c.wait(t, name)
		if c.err != nil || !c.acked.Load() {
			t.Errorf("call %s: err %v, acknowledged %v", name, c.err, c.acked.Load())
		}
	}
	oneTransaction(t, store.SQLite, a, slow, b)
	for phone, want := range map[string]int{"610000001": 1, "610000002": 1, "610000003": 0, "610000004": 1, "610000005": 0} {
		if got := len(customersWithPhone(t, st, phone)); got != want {
			t.Errorf("phone %s: %d customers, want %d", phone, got, want)
		}
	}
}

// A batch is bounded: at most MaxBatch calls, and no call is started once the
// transaction has run for MaxBatchTime; the calls left over run in the next
// transactions, in order. SQLite only.
func TestGroupCommitBatchBounds(t *testing.T) {
	url := storetest.URL(t, store.SQLite)
	insert := func(phone string) *call {
		return &call{fn: func(ctx context.Context, tx *store.Tx) error {
			_, _, err := tx.Customers().FindOrCreateCustomerByPhone(ctx, store.NewCustomer{FullName: "X", Phone: phone})
			return err
		}}
	}
	transactions := func(calls []*call) []int {
		var sizes []int
		for i, c := range calls {
			if c.err != nil || !c.acked.Load() {
				t.Errorf("call %d: %v", i, c.err)
			}
			if i == 0 || c.tx != calls[i-1].tx {
				sizes = append(sizes, 0)
			}
			sizes[len(sizes)-1]++
		}
		return sizes
	}

	bySize := storetest.OpenURL(t, url, store.Options{GroupCommit: store.GroupCommit{MaxBatch: 2, MaxBatchTime: time.Hour}})
	var calls []*call
	for i := range 5 {
		calls = append(calls, insert(fmt.Sprintf("62000000%d", i)))
	}
	runBatch(t, bySize, calls...)
	if got := fmt.Sprint(transactions(calls)); got != "[2 2 1]" {
		t.Errorf("MaxBatch 2, 5 calls: transactions of %s calls, want [2 2 1]", got)
	}

	// With a bound of 1 ns every call but the first of a transaction finds it spent.
	byTime := storetest.OpenURL(t, url, store.Options{GroupCommit: store.GroupCommit{MaxBatchTime: time.Nanosecond}})
	calls = nil
	for i := range 3 {
		calls = append(calls, insert(fmt.Sprintf("63000000%d", i)))
	}
	runBatch(t, byTime, calls...)
	if got := fmt.Sprint(transactions(calls)); got != "[1 1 1]" {
		t.Errorf("MaxBatchTime 1ns, 3 calls: transactions of %s calls, want [1 1 1]", got)
	}
}

// openGrouped opens a store whose group commit never cuts a batch for time, so
// that the calls a test queues form one transaction however slow the machine (a
// loaded machine under -race can take longer than the default 50 ms per batch).
func openGrouped(t *testing.T, d store.Dialect) *store.Store {
	t.Helper()
	return storetest.OpenURL(t, storetest.URL(t, d), store.Options{GroupCommit: store.GroupCommit{MaxBatchTime: time.Hour}})
}
