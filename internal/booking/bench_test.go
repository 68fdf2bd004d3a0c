package booking_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"parking/internal/booking"
	"parking/internal/pricing"
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
