package ui_test

import (
	"fmt"
	"io"
	"net/http"
	"testing"

	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// BenchmarkCustomerProfile measures GET /users/profile (JSON) through the real
// server: session lookup, the customer-area reads and encoding, for a customer with
// 40 reservations (20 active, 20 past, each with one extra), clients in parallel.
func BenchmarkCustomerProfile(b *testing.B) {
	for _, d := range storetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			a := apptest.Start(b, d)
			c, _ := apptest.Customer(b, a, "bench@example.com", "600000001")
			for i := range 40 {
				id := webtest.CustBookPast(b, a, "600000001", fmt.Sprintf("%04dBEN", i%5), "COCHE",
					fmt.Sprintf("2026-%02d-%02dT10:00", 1+i%12, 1+i%27), fmt.Sprintf("2026-%02d-%02dT10:00", 1+i%12, 2+i%27), 1, []int{1})
				if i%2 == 1 {
					if _, err := a.Store.WriteDB().Exec(`UPDATE reservation SET status = $2, is_paid = true, payment_method = 'EFECTIVO' WHERE id_reservation = $1`, id, string(reservation.Finalized)); err != nil {
						b.Fatal(err)
					}
				}
			}
			req := func() error {
				r, _ := http.NewRequest("GET", a.URL+"/users/profile", nil)
				r.Header.Set("Accept", "application/json")
				resp, err := c.Do(r)
				if err != nil {
					return err
				}
				defer resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					return fmt.Errorf("status %d", resp.StatusCode)
				}
				_, err = io.Copy(io.Discard, resp.Body)
				return err
			}
			b.ResetTimer()
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := req(); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
