package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
)

// History's page plans, its tally-based count and its direct count must all agree
// with a plain reading of the data, whatever the filter: a brute-force oracle over
// every reservation checks them, after status changes have moved the tallies. The
// entry days (dateFrom/dateTo, docs/admin.md#history) and the booking days
// (bookedFrom/bookedTo) are independent filters: each reservation is booked on one
// of 60 days and enters on another, chosen apart.
func TestHistoryAgreesWithOracle(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		url := storetest.URL(t, d)
		st := storetest.OpenURL(t, url, store.Options{})
		// The same data under each plan choice: ScanBudget -1 always gathers the
		// page's matches, a huge one always walks the date index; MaxPassedIDs -1
		// never carries the matching ids from the count to the page (the subquery
		// runs again).
		// SortBudget -1 never sorts an entry range (the booking-date index is walked),
		// a huge one always does.
		planList := [][3]int{{-1, 5000, 1 << 30}, {-1, -1, 1 << 30}, {1 << 30, 5000, 1 << 30}, {-1, -1, -1}, {1 << 30, 5000, -1}}
		plans := map[[3]int]*store.Store{}
		for _, p := range planList {
			plans[p] = storetest.OpenURL(t, url, store.Options{History: store.HistoryTuning{ScanBudget: p[0], MaxPassedIDs: p[1], SortBudget: p[2]}})
		}
		ctx := context.Background()
		rng := rand.New(rand.NewPCG(7, 8))
		names := []string{"Ana García", "Luis García López", "María Abcdario", "Pedro Pérez", "ÁLVARO Ruiz", "100% Real_Name", `Quote "Q" O'Hara`}
		plates := []string{"1234BCD", "5678BCD", "0000XYZ", "1234ABC", "9999GAR", "ABCD123"}
		type row struct {
			id     int64
			name   string
			plate  string
			status reservation.Status
			made   time.Time
			entry  time.Time
		}
		var all []row
		base := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		err := st.InTx(ctx, func(tx *store.Tx) error {
			if _, err := tx.Exec(ctx, `INSERT INTO main_service (name) VALUES ('ECO')`); err != nil {
				return err
			}
			for i := 0; i < 160; i++ {
				name, plate := names[rng.IntN(len(names))], plates[rng.IntN(len(plates))]
				c, _, err := tx.Customers().FindOrCreateCustomerByPhone(ctx, store.NewCustomer{FullName: name, Phone: fmt.Sprintf("6%02d", slices.Index(names, name))})
				if err != nil {
					return err
				}
				v, _, err := tx.Customers().FindOrCreateVehicleByPlate(ctx, reservation.Vehicle{LicensePlate: plate, Brand: "B", Model: "M", Color: "C", Type: "COCHE"})
				if err != nil {
					return err
				}
				entry := base.Add(time.Duration(rng.IntN(60*24)) * time.Hour)
				res, err := tx.Reservations().InsertReservation(ctx, store.NewReservation{Entry: entry, TotalPrice: 100, CustomerID: c.ID, VehicleID: v.ID, MainServiceID: 1})
				if err != nil {
					return err
				}
				id := res.ID
				made := base.Add(time.Duration(rng.IntN(60*24)) * time.Hour)
				if _, err := tx.Exec(ctx, `UPDATE reservation SET reservation_date = $1 WHERE id_reservation = $2`, made, id); err != nil {
					return err
				}
				status := reservation.Pending
				switch rng.IntN(4) {
				case 1:
					if _, err := tx.Reservations().MarkCancelled(ctx, id, reservation.Pending); err != nil {
						return err
					}
					status = reservation.Cancelled
				case 2, 3:
					if _, err := tx.Exec(ctx, `UPDATE reservation SET status = 'EN CURSO', cod_parking_spot = $2 WHERE id_reservation = $1`, id, fmt.Sprint("S", id)); err != nil {
						return err
					}
					status = reservation.InCourse
					if rng.IntN(2) == 0 {
						if _, err := tx.Reservations().MarkFinalized(ctx, id, store.Finalization{Method: reservation.Card, Exit: entry.Add(time.Hour), TotalPrice: 100}); err != nil {
							return err
						}
						status = reservation.Finalized
					}
				}
				all = append(all, row{id, name, plate, status, made, entry})
			}
			// A customer renamed after booking: the search sees the new name.
			_, err := tx.Exec(ctx, `UPDATE customer SET full_name = 'Pedro Pérez Renamed' WHERE full_name = 'Pedro Pérez'`)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := range all {
			if all[i].name == "Pedro Pérez" {
				all[i].name = "Pedro Pérez Renamed"
			}
		}
		fold := strings.ToLower
		oracle := func(f store.HistoryFilter) ([]int64, int) {
			var m []row
			for _, r := range all {
				if f.Status != "" && r.status != f.Status || !within(r.entry, f.EntryFrom, f.EntryTo) || !within(r.made, f.BookedFrom, f.BookedTo) {
					continue
				}
				if f.Search != "" && !strings.Contains(fold(r.name), fold(f.Search)) && !strings.Contains(fold(r.plate), fold(f.Search)) {
					continue
				}
				m = append(m, r)
			}
			slices.SortFunc(m, func(a, b row) int {
				if c := b.made.Compare(a.made); c != 0 {
					return c
				}
				return int(b.id - a.id)
			})
			var ids []int64
			for i := f.Offset; i < len(m) && i < f.Offset+f.Limit; i++ {
				ids = append(ids, m[i].id)
			}
			return ids, len(m)
		}
		// "álvaro" needs Unicode case folding ("ÁLVARO"); SQLite's LIKE fallback for one or
		// two characters folds ASCII only, so none of the short ones has accents.
		searches := []string{"", "garcía", "GARCÍA", "álvaro", "bcd", "1234", "abc", "a", "ar", "%", "_", `"q"`, "o'h", "pérez renamed", "zzz"}
		statuses := []reservation.Status{"", reservation.Pending, reservation.InCourse, reservation.Finalized, reservation.Cancelled}
		// Date filters: none; entry days; booking days; both; an open end of each.
		type dates struct{ entryFrom, entryTo, bookedFrom, bookedTo time.Time }
		day := func(n int) time.Time { return base.AddDate(0, 0, n) }
		ranges := []dates{{}, {entryFrom: day(10), entryTo: day(40)}, {bookedFrom: day(10), bookedTo: day(40)},
			{entryFrom: day(5), entryTo: day(50), bookedFrom: day(20), bookedTo: day(45)}, {entryFrom: day(50)}, {bookedTo: day(8)}}
		filter := func(search string, status reservation.Status, rg dates) store.HistoryFilter {
			return store.HistoryFilter{Search: search, Status: status, EntryFrom: rg.entryFrom, EntryTo: rg.entryTo, BookedFrom: rg.bookedFrom, BookedTo: rg.bookedTo}
		}
		// Plans: {scan budget, carried ids, sort budget}. The sort budget only matters
		// with entry days: 0 walks the booking-date index, a huge one sorts the range.
		for _, plan := range planList {
			st := plans[plan]
			for _, search := range searches {
				for _, status := range statuses {
					for _, rg := range ranges {
						if plan[2] < 0 && rg.entryFrom.IsZero() && rg.entryTo.IsZero() {
							continue // the same plans as with a sort budget
						}
						for _, offset := range []int{0, 15, 30} {
							f := filter(search, status, rg)
							f.Limit, f.Offset = 15, offset
							rows, total, err := st.Records().History(ctx, f)
							if err != nil {
								t.Fatalf("%+v: %v", f, err)
							}
							wantIDs, wantTotal := oracle(f)
							var got []int64
							for _, r := range rows {
								got = append(got, r.Reservation.ID)
							}
							if total != wantTotal || fmt.Sprint(got) != fmt.Sprint(wantIDs) {
								t.Errorf("plan %v, search %q status %q dates %+v offset %d:\n got %d %v\nwant %d %v",
									plan, search, status, rg, offset, total, got, wantTotal, wantIDs)
							}
						}
					}
				}
			}
		}

		// HistoryEach (the CSV export): every match, in the history's order, by both
		// plans of a search (gathered through few matching ids; the date index, or
		// the entry range, walked).
		for _, plan := range [][3]int{{-1, 5000, 1 << 30}, {-1, -1, 1 << 30}, {-1, -1, -1}} {
			st := plans[plan]
			for _, search := range searches {
				for _, status := range statuses {
					for _, rg := range ranges {
						f := filter(search, status, rg)
						var got []int64
						if err := st.Records().HistoryEach(ctx, f, func(r reservation.HistoryRow) error {
							got = append(got, r.Reservation.ID)
							return nil
						}); err != nil {
							t.Fatalf("each %+v: %v", f, err)
						}
						f.Limit = len(all)
						want, _ := oracle(f)
						if fmt.Sprint(got) != fmt.Sprint(want) {
							t.Errorf("each, plan %v, search %q status %q dates %+v:\n got %v\nwant %v", plan, search, status, rg, got, want)
						}
					}
				}
			}
		}
		stop := fmt.Errorf("enough")
		n := 0
		err = st.Records().HistoryEach(ctx, store.HistoryFilter{}, func(reservation.HistoryRow) error { n++; return stop })
		if err != stop || n != 1 {
			t.Errorf("a callback's error must stop the walk and be returned: %v after %d rows", err, n)
		}
	})
}

// within reports whether t is in [from, to), a zero bound being open.
func within(t, from, to time.Time) bool {
	return (from.IsZero() || !t.Before(from)) && (to.IsZero() || t.Before(to))
}
