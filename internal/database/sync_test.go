package database_test

import (
	"context"
	"testing"

	"parking/internal/store"
	"parking/internal/storetest"
)

// SQLite's synchronous setting is the one asked for, on the write connection and
// on the read pool: FULL (2) by default, NORMAL (1) when chosen; anything else is
// refused at open.
func TestSQLiteSyncSetting(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		opt  store.SQLiteSync
		want int
	}{{"", 2}, {store.SyncFull, 2}, {store.SyncNormal, 1}} {
		st, err := store.OpenWith(ctx, storetest.URL(t, store.SQLite), store.Options{SQLiteSync: c.opt})
		if err != nil {
			t.Fatal(err)
		}
		var write, read int
		if err := st.WriteDB().QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&write); err != nil {
			t.Fatal(err)
		}
		if err := st.DB().QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&read); err != nil {
			t.Fatal(err)
		}
		st.Close()
		if write != c.want || read != c.want {
			t.Errorf("SQLiteSync %q: PRAGMA synchronous %d (write), %d (read); want %d", c.opt, write, read, c.want)
		}
	}
	if _, err := store.OpenWith(ctx, storetest.URL(t, store.SQLite), store.Options{SQLiteSync: "OFF"}); err == nil {
		t.Error("SQLiteSync OFF was accepted")
	}
	for in, want := range map[string]store.SQLiteSync{"full": store.SyncFull, " NORMAL ": store.SyncNormal} {
		if got, err := store.ParseSQLiteSync(in); err != nil || got != want {
			t.Errorf("ParseSQLiteSync(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
