package booking_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"parking/internal/booking"
	"parking/internal/storetest"
)

// BenchmarkCreate measures one public booking for a new customer and vehicle
// (the longest path: five inserts in one transaction), in parallel like a server.
func BenchmarkCreate(b *testing.B) {
	for _, d := range storetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			svc, _ := newServiceTB(b, d)
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
		})
	}
}
