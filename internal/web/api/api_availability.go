package api

import (
	"net/http"

	"parking/internal/booking"
	"parking/internal/web/httpx"
)

// AvailabilityJSON is GET /api/availability's answer (docs/capacity.md#seeing-it).
type AvailabilityJSON struct {
	From string            `json:"from"`
	To   string            `json:"to"`
	Days []AvailabilityDay `json:"days"`
}

// AvailabilityDay is one day: the public sees the status, an administrator the
// counts as well (nil for the public, and then absent).
type AvailabilityDay struct {
	Date   string `json:"date"`
	Status string `json:"status"`
	*AvailabilityCounts
}

// AvailabilityCounts are a day's figures: capacity is the facility's places (0:
// unlimited), sellable the places sold per day that status is measured against (0:
// unlimited), booked every stay on the day, free the sellable places left (0 when
// full or oversold; absent when unlimited).
type AvailabilityCounts struct {
	Capacity int  `json:"capacity"`
	Sellable int  `json:"sellable"`
	Booked   int  `json:"booked"`
	Free     *int `json:"free,omitempty"`
}

// AvailabilityView renders an availability for the wire; admin adds the counts.
func AvailabilityView(a booking.Availability, admin bool) AvailabilityJSON {
	out := AvailabilityJSON{From: a.From.String(), To: a.To.String(), Days: make([]AvailabilityDay, len(a.Days))}
	for i, d := range a.Days {
		day := AvailabilityDay{Date: d.Day.String(), Status: string(d.Status)}
		if admin {
			day.AvailabilityCounts = &AvailabilityCounts{Capacity: a.Facility.Capacity, Sellable: d.Limit, Booked: d.Booked}
			if d.Limit > 0 {
				free := d.Free()
				day.Free = &free
			}
		}
		out.Days[i] = day
	}
	return out
}

// apiAvailability is GET /api/availability?from=YYYY-MM-DD&to=YYYY-MM-DD (public;
// at most 92 days, else 400 {success:false, message}).
func (s *Server) apiAvailability(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	span, err := booking.ParseAvailabilityRange(q.Get("from"), q.Get("to"))
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	a, err := s.booking.Availability(r.Context(), span)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, AvailabilityView(a, s.ViewerIsAdmin(r)))
}
