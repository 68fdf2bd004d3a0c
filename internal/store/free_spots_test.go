package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"parking/internal/store"
	"parking/internal/storetest"
)

// FreeSpots, the check-in dialog's suggestions, on both databases: the codes used
// since the given day (by a stay of any status, finished ones included) that no
// pending or running stay other than the one being checked in holds over its stay,
// in code order, at most limit of them.
func TestFreeSpots(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		ctx := context.Background()
		day := func(n int) time.Time { return time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC).AddDate(0, 0, n) }
		ids := seedBoard(t, st, 9, day(0))
		set := func(id int64, spot, status string, entry, exit time.Time) {
			t.Helper()
			paid := status == "FINALIZADA"
			var method *string
			if paid {
				m := "TARJETA"
				method = &m
			}
			if _, err := st.WriteDB().ExecContext(ctx, `UPDATE reservation SET cod_parking_spot = $1, status = $2, entry_date = $3,
				exit_date = $4, is_paid = $5, payment_method = $6 WHERE id_reservation = $7`,
				spot, status, store.Time(entry), store.Time(exit), paid, method, id); err != nil {
				t.Fatal(err)
			}
		}
		set(ids[0], "A-04", "FINALIZADA", day(-30), day(-25))   // used, free now
		set(ids[1], "A-02", "FINALIZADA", day(-20), day(-18))   // used, held below
		set(ids[2], "A-02", "EN CURSO", day(-1), day(3))        // holds A-02 over the stay
		set(ids[3], "A-01", "FINALIZADA", day(-400), day(-399)) // used before since: not suggested
		set(ids[4], "A-03", "CANCELADA", day(-10), day(-9))     // used (a cancelled stay counts as use)
		set(ids[5], "A-05", "PENDIENTE", day(10), day(12))      // held, but after the stay: free
		set(ids[6], "A-06", "PENDIENTE", day(1), day(4))        // the stay being checked in holds it itself
		set(ids[7], "A-07", "FINALIZADA", day(-5), day(-4))
		// ids[8]: the stay being checked in, days 0 to 2.

		since := day(-180)
		got, err := st.Records().FreeSpots(ctx, ids[6], day(0), ptrTime(day(2)), since, 10)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"A-03", "A-04", "A-05", "A-06", "A-07"}; !slices.Equal(got, want) {
			t.Fatalf("free spots = %v, want %v", got, want)
		}
		// Another stay over the same days: A-06 is held by ids[6].
		got, err = st.Records().FreeSpots(ctx, ids[8], day(0), ptrTime(day(2)), since, 10)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"A-03", "A-04", "A-05", "A-07"}; !slices.Equal(got, want) {
			t.Fatalf("free spots = %v, want %v", got, want)
		}
		// An open stay (no exit): A-05's later booking now overlaps it.
		got, err = st.Records().FreeSpots(ctx, ids[8], day(0), nil, since, 2)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"A-03", "A-04"}; !slices.Equal(got, want) {
			t.Fatalf("free spots of an open stay, at most 2 = %v, want %v", got, want)
		}
	})
}

func ptrTime(t time.Time) *time.Time { return &t }
