package api

import (
	"parking/internal/money"
	"parking/internal/reservation"
)

// BookedExtraJSON is a booked additional service as every view of a reservation
// shows it (staff, its customer, the manage link): the price is the one booked.
type BookedExtraJSON struct {
	ID    int64       `json:"id"`
	Name  string      `json:"name"`
	Price money.Cents `json:"price"`
}

// BookedExtras is the wire form of a reservation's additional services; [] for none.
func BookedExtras(extras []reservation.BookedExtraDetail) []BookedExtraJSON {
	out := make([]BookedExtraJSON, len(extras))
	for i, e := range extras {
		out[i] = BookedExtraJSON{ID: e.ID, Name: e.Name, Price: e.Price}
	}
	return out
}
