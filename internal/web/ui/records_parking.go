package ui

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"parking/internal/feed"
	"parking/internal/localtime"
	"parking/internal/records"
	"parking/internal/web/httpx"
)

// adminParkingSpotJSON is one spot of the board (docs/admin.md#parking-board).
type adminParkingSpotJSON struct {
	Code        string              `json:"code"`
	Status      string              `json:"status"` // occupied | reserved
	Reservation parkingItemJSON     `json:"reservation"`
	Upcoming    []adminListItemJSON `json:"upcoming"`
}

// parkingItemJSON is the reservation on a spot, marked when its car is overdue
// (still in after its exit date, docs/board.md#overdue).
type parkingItemJSON struct {
	adminListItemJSON
	Overdue bool `json:"overdue"`
	// ArrivedAt: a gate camera saw the car arrive (docs/gate.md#arrival); null until then.
	ArrivedAt *string `json:"arrived_at"`
}

// adminParking is GET /admin/parking, the real-time parking board (docs/admin.md#parking-board):
// {spots: [{code, status, reservation, upcoming}], occupied, reserved, free,
// capacity, day, updated_at}. A spot is "occupied" while a reservation on it is
// EN CURSO, "reserved" when a PENDIENTE one holds it today. free is capacity −
// occupied, null when no capacity is configured (the facility settings, /admin/settings).
//
// Browsers get the live board page (admin_parking.html): the board as it is now,
// which static/admin.js keeps current from GET /admin/parking/events.
func (s recordsPages) adminParking(w http.ResponseWriter, r *http.Request) {
	// The feed's position is read before the board, so the page's live feed can tell
	// whether anything changed between this read and its subscription.
	seq := s.booking.ParkingFeed().Seq()
	// The capacity is the facility setting (docs/capacity.md#settings), read on every request so
	// that a change on /admin/settings shows at once.
	f, err := s.catalogOps.Facility(r.Context())
	var b records.ParkingBoard
	if err == nil {
		b, err = s.records.ParkingBoard(r.Context(), f.Capacity)
	}
	if !httpx.WantsJSON(r) {
		if err != nil {
			s.renderError(w, r, err, "error.parking_unavailable", "/admin/dashboard", "back.dashboard")
			return
		}
		s.renderParkingPage(w, r, b, seq)
		return
	}
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	spots := make([]adminParkingSpotJSON, len(b.Spots))
	for i, sp := range b.Spots {
		spots[i] = adminParkingSpotJSON{Code: sp.Code, Status: sp.Status, Reservation: parkingItemJSON{s.adminParkingItem(sp.Reservation), sp.Overdue,
			s.adminTime(sp.Reservation.Reservation.ArrivedAt)},
			Upcoming: make([]adminListItemJSON, len(sp.Upcoming))}
		for j, u := range sp.Upcoming {
			spots[i].Upcoming[j] = s.adminParkingItem(u)
		}
	}
	var capacity any
	if b.Capacity > 0 {
		capacity = b.Capacity
	}
	httpx.WriteJSONCompressed(w, r, http.StatusOK, map[string]any{
		"spots": spots, "occupied": b.Occupied, "reserved": b.Reserved, "free": b.Free, "capacity": capacity,
		"day": b.Day, "updated_at": localtime.JSON(b.UpdatedAt, s.cfg.Location),
	})
}

// parkingEventJSON is the data of one "parking" event of the live feed.
type parkingEventJSON struct {
	Type          string  `json:"type"` // started | finalized | cancelled | spot_changed | arrived
	ReservationID int64   `json:"id_reservation"`
	Status        string  `json:"status"`
	Spot          *string `json:"cod_parking_spot"`
	PreviousSpot  *string `json:"previous_spot"`
	At            string  `json:"at"`
}

// Live feed timing. The heartbeat (Config.FeedHeartbeat, default 15 s) keeps
// proxies from closing an idle stream and lets the server notice a vanished client;
// the lifetime bound makes the browser reconnect now and then, which re-checks its
// session.
const (
	defaultFeedHeartbeat = 15 * time.Second
	feedMaxLifetime      = time.Hour
)

// adminParkingEvents is GET /admin/parking/events, a Server-Sent Events stream of
// parking-board changes: an event "parking" whenever a reservation starts,
// finishes, is cancelled or changes spot (after its transaction commits), and a
// comment line as heartbeat. It ends when the client goes away or the server shuts
// down; EventSource reconnects by itself, and a client should reload GET
// /admin/parking on (re)connection, since events missed meanwhile are not replayed.
func (s recordsPages) adminParkingEvents(w http.ResponseWriter, r *http.Request) {
	sub := s.booking.ParkingFeed().Subscribe()
	defer sub.Close()
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	// hello: the feed's position at subscription; a page rendered at the same
	// position is current and need not read the board again (static/admin.js).
	if _, err := fmt.Fprintf(w, "retry: 3000\nevent: hello\ndata: {\"seq\":%d}\n\n: connected\n\n", sub.Seq); err != nil {
		return
	}
	if err := rc.Flush(); err != nil {
		return
	}
	heartbeat := time.NewTicker(cmp.Or(s.cfg.FeedHeartbeat, defaultFeedHeartbeat))
	defer heartbeat.Stop()
	lifetime := time.NewTimer(feedMaxLifetime)
	defer lifetime.Stop()
	for {
		var err error
		select {
		case <-r.Context().Done():
			return
		case <-lifetime.C:
			return
		case ev, ok := <-sub.C:
			if !ok { // server shutting down, or this client fell too far behind
				return
			}
			err = s.writeParkingEvent(w, ev)
		case <-heartbeat.C:
			_, err = fmt.Fprint(w, ": heartbeat\n\n")
		}
		if err == nil {
			err = rc.Flush()
		}
		if err != nil {
			return
		}
	}
}

func (s recordsPages) writeParkingEvent(w http.ResponseWriter, ev feed.Event) error {
	data, err := json.Marshal(parkingEventJSON{
		Type: string(ev.Kind), ReservationID: ev.ReservationID, Status: ev.Status,
		Spot: ev.Spot, PreviousSpot: ev.PreviousSpot, At: localtime.JSON(ev.At, s.cfg.Location),
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "id: %d\nevent: parking\ndata: %s\n\n", ev.ID, data)
	return err
}
