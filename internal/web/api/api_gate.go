package api

import (
	"net/http"

	"parking/internal/fault"
	"parking/internal/gate"
	"parking/internal/i18n"
	"parking/internal/reservation"
	"parking/internal/web/httpx"
)

// gateReservationJSON is the reservation a gate answer names (docs/gate.md#answers).
type gateReservationJSON struct {
	ID           int64  `json:"id_reservation"`
	Reference    string `json:"reference"`
	Status       string `json:"status"`
	LicensePlate string `json:"license_plate"`
}

// gateAnswerJSON is the answer to a camera's event.
type gateAnswerJSON struct {
	Success     bool                 `json:"success"`
	Open        bool                 `json:"open"`
	Message     string               `json:"message"`
	Reservation *gateReservationJSON `json:"reservation"`
}

// apiGateEvent is POST /api/gate/events (docs/gate.md#what-a-camera-sends): a
// camera's bearer token and {plate, direction, at?} → 200 with whether the barrier
// opens; an unknown token 401, a bad plate, direction or time 400 naming the field,
// more than gate.EventsPerMinute events in a minute from one camera 429 with
// Retry-After. Every answered event is kept.
func (s *Server) apiGateEvent(w http.ResponseWriter, r *http.Request) {
	d, err := s.gate.Authenticate(r.Context(), httpx.BearerToken(r))
	if err != nil {
		if fault.KindOf(err) == fault.Unauthorized {
			w.Header().Set("WWW-Authenticate", `Bearer realm="parking-gate"`)
		}
		s.WriteSuccessFalse(w, r, err)
		return
	}
	var req struct {
		Plate     string  `json:"plate"`
		Direction string  `json:"direction"`
		At        *string `json:"at"`
	}
	if err := httpx.DecodeJSON(w, r, &req); err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	a, err := s.gate.Event(r.Context(), d, gate.Read{Plate: req.Plate, Direction: req.Direction, At: req.At})
	if err != nil {
		httpx.SetRetryAfter(w, err)
		s.WriteSuccessFalse(w, r, err)
		return
	}
	out := gateAnswerJSON{Success: true, Open: a.Event.Open, Message: i18n.T(s.Lang(r), "gate.msg."+string(a.Outcome))}
	if res := a.Reservation; res != nil {
		out.Reservation = &gateReservationJSON{ID: res.ID, Reference: reservation.ShowReference(res.Reference),
			Status: string(res.Status), LicensePlate: a.Plate}
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}
