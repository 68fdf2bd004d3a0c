package ui_test

import (
	"fmt"
	"io"
	"net/http"
	"testing"

	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/webtest"
)

// BenchmarkCustomerPages serves the home page, the booking page and the profile
// page (a customer with 3 active and 40 past reservations) through the real
// server, gzip accepted as browsers do, so rendering and compression are counted.
func BenchmarkCustomerPages(b *testing.B) {
	a := apptest.Start(b, store.SQLite)
	cust, _ := apptest.Customer(b, a, "bench@example.com", "600000001")
	for i := range 43 {
		id := webtest.CustBookPast(b, a, "600000001", "1111AAA", "COCHE", fmt.Sprintf("2026-%02d-%02dT10:00", 1+i%12, 1+i%25), fmt.Sprintf("2026-%02d-%02dT10:00", 1+i%12, 3+i%25), 1+i%3, []int{1, 2})
		if i >= 3 {
			if _, err := a.Store.WriteDB().Exec(`UPDATE reservation SET status = $2, is_paid = true, payment_method = 'EFECTIVO' WHERE id_reservation = $1`, id, string(reservation.Finalized)); err != nil {
				b.Fatal(err)
			}
		}
	}
	client := &http.Client{Jar: cust.Jar, Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 16}}
	for _, p := range []string{"/", "/booking", "/users/profile"} {
		b.Run(p, func(b *testing.B) {
			b.SetParallelism(4)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					req, _ := http.NewRequest("GET", a.URL+p, nil)
					req.Header.Set("Accept-Encoding", "gzip")
					res, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != 200 {
						b.Errorf("status %d", res.StatusCode)
						return
					}
				}
			})
		})
	}
}
