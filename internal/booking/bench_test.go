package booking_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"parking/internal/booking"
	"parking/internal/clock/clocktest"
	"parking/internal/pricing"
	"parking/internal/settings"
	"parking/internal/store"
	"parking/internal/storetest"
)

// BenchmarkCreate measures one public booking for a new customer and vehicle
// (the longest path: five inserts in one transaction), in parallel like a server.
// The sqlite variants are the figures of docs/performance.md: durability FULL (the
// default) and NORMAL, each with group commit and without it (one transaction per
// call). The plain "sqlite" one is the test suite's setting (NORMAL, grouped).
func BenchmarkCreate(b *testing.B) {
	for _, d := range storetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			svc, _ := newServiceTB(b, d)
			benchCreate(b, svc)
		})
	}
	for _, v := range []struct {
		name string
		opts store.Options
	}{
		{"sqlite-full", store.Options{SQLiteSync: store.SyncFull}},
		{"sqlite-full-ungrouped", store.Options{SQLiteSync: store.SyncFull, GroupCommit: store.GroupCommit{MaxBatch: 1}}},
		{"sqlite-normal", store.Options{SQLiteSync: store.SyncNormal}},
		{"sqlite-normal-ungrouped", store.Options{SQLiteSync: store.SyncNormal, GroupCommit: store.GroupCommit{MaxBatch: 1}}},
	} {
		b.Run(v.name, func(b *testing.B) {
			st := storetest.OpenURL(b, storetest.URL(b, store.SQLite), v.opts)
			ctx := context.Background()
			if _, err := st.Catalog().SeedCatalog(ctx, pricing.Default()); err != nil {
				b.Fatal(err)
			}
			cat, err := st.Catalog().LoadCatalog(ctx)
			if err != nil {
				b.Fatal(err)
			}
			h := &pricing.Holder{}
			h.Store(pricing.NewSnapshot(cat))
			benchCreate(b, newServices(st, h))
		})
	}
}

func benchCreate(b *testing.B, svc *services) {
	var n atomic.Int64
	b.ReportAllocs()
	b.SetParallelism(25)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			k := n.Add(1)
			in := validBooking()
			in.Phone = fmt.Sprintf("7%08d", k)
			in.LicensePlate = fmt.Sprintf("B%08d", k)
			if _, err := svc.Create(context.Background(), booking.Public, in); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkStayAvailability measures the quote's availability of a 5-day stay with a
// capacity of 1,000 set: from the quote's copy of the occupancy (the clock does not
// move, so the copy is read once), and from the database as every quote did before
// the copy (a stay beyond the copy's window takes that path).
func BenchmarkStayAvailability(b *testing.B) {
	for _, d := range storetest.Dialects {
		svc, _ := newServiceTB(b, d)
		if _, err := svc.catalog.SaveFacility(context.Background(), settings.Defaults(1000)); err != nil {
			b.Fatal(err)
		}
		for _, v := range []struct {
			name  string
			first int
		}{{"copy", 20}, {"database", 400}} {
			b.Run(string(d)+"-"+v.name, func(b *testing.B) {
				entry, exit := clocktest.Day(v.first, 10, 0), clocktest.Day(v.first+4, 18, 0)
				b.ReportAllocs()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						if a, err := svc.StayAvailability(context.Background(), entry, exit, nil); err != nil || len(a.Days) != 5 {
							b.Errorf("%d days, %v", len(a.Days), err)
							return
						}
					}
				})
			})
		}
	}
}
