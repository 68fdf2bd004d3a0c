// Command checkinprep readies reservations for bench/compare.sh's check-in scenario:
// -n walk-ins, each on a spot of its own with the five photos a check-in needs,
// made through the service's own operations (so the capacity ledger, the audit trail
// and the outbox are as a counter would leave them). It prints the first and last
// id; bench/checkin.lua then checks each in once.
//
//	go run ./bench/checkinprep -database-url sqlite:/tmp/x.db -n 3000 -tag 7
package main

import (
	"flag"
	"fmt"
	"sync"
	"time"

	"parking/bench/benchsetup"
	"parking/internal/booking"
	"parking/internal/handover"
)

func main() {
	n := flag.Int("n", 3000, "reservations to ready")
	tag := flag.Int("tag", 0, "0–99: keeps the phones, plates and spots of one preparation apart from another's")
	workers := flag.Int("workers", 8, "preparations at once")
	ctx, env := benchsetup.FromFlags("checkinprep")
	defer env.Store.Close()
	_, svc := env.Booking()
	photos := handover.New(env.Store, env.Log)
	entry := time.Now().In(env.Loc).Truncate(time.Hour).Add(time.Hour)
	exit := entry.AddDate(0, 0, 3)

	ids := make([]int64, *n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range *workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				// A Spanish mobile and a Spanish plate (4 digits, 3 consonants) per reservation.
				k := *tag*100_000 + i
				c, err := svc.WalkIn(ctx, booking.NewBooking{
					FullName: fmt.Sprintf("Cliente %d", k), Phone: fmt.Sprintf("7%08d", k),
					LicensePlate: fmt.Sprintf("%04d%s", i%10_000, plateLetters(*tag, i/10_000)), VehicleType: "TURISMO",
					Entry: entry, Exit: &exit, MainService: 1, Spot: fmt.Sprintf("CK%02d-%d", *tag, i),
				})
				env.Check(err)
				for p := range 5 {
					_, _, err := photos.AddPhoto(ctx, c.Reservation.ID, fmt.Sprintf("https://fotos.example.com/%d-%d.jpg", c.Reservation.ID, p), "")
					env.Check(err)
				}
				ids[i] = c.Reservation.ID
			}
		}()
	}
	for i := range *n {
		next <- i
	}
	close(next)
	wg.Wait()
	lo, hi := ids[0], ids[0]
	for _, id := range ids {
		lo, hi = min(lo, id), max(hi, id)
	}
	if hi-lo+1 != int64(*n) {
		env.Check(fmt.Errorf("the %d reservations are not consecutive (%d–%d): another writer ran meanwhile", *n, lo, hi))
	}
	fmt.Println(lo, hi)
}

// plateLetters are the three consonants of a plate: a different set per tag and
// per block of 10,000.
func plateLetters(tag, block int) string {
	const consonants = "BCDFGHJKLMNPRSTVWXYZ"
	k := tag*7 + block
	return string([]byte{consonants[k/400%20], consonants[k/20%20], consonants[k%20]})
}
