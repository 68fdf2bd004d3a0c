package ui

import (
	"net/http"

	"parking/internal/records"
	"parking/internal/reservation"
)

// The live parking board, GET /admin/parking for browsers (spec: "Real-time parking
// page"). The server renders the board as it is; static/admin.js then listens to
// GET /admin/parking/events (EventSource) and, on every event and on every
// (re)connection, reads the board again from GET /admin/parking as JSON and redraws
// it without reloading the page, showing the connection's state. The first
// connection skips that reading when nothing happened since the page was read (the
// feed's position in data-seq equals the stream's hello): a board of a thousand
// spots is read and drawn once, not twice.

// parkingPageView is the data of admin_parking.html.
type parkingPageView struct {
	Spots    []parkingSpotView
	Occupied int
	Reserved int
	Free     *int
	Capacity int
	Day      string              // "21/11/2026"
	Updated  string              // "10:05:31"
	Chart    *occupancyChartView // today and the next 14 days (docs/capacity.md#what-counts)
	Seq      uint64              // the live feed's position before the board was read
}

type parkingSpotView struct {
	Code     string
	Status   string // occupied | reserved
	Label    string // Ocupada | Reservada hoy
	Res      parkingResView
	Upcoming []parkingResView
	Overdue  bool // the car is still in after its exit date
}

type parkingResView struct {
	ID       int64
	Plate    string
	Vehicle  string
	Customer string
	Entry    string
	Exit     string
}

func (s recordsPages) parkingRes(p reservation.ParkingRow) parkingResView {
	return parkingResView{ID: p.Reservation.ID, Plate: p.LicensePlate, Vehicle: vehicleDescription(p.Brand, p.Model),
		Customer: p.CustomerName, Entry: s.shortTime(p.Reservation.Entry), Exit: s.optTime(p.Reservation.Exit)}
}

// spotLabels name a spot's state on the board.
var spotLabels = map[string]string{records.SpotOccupied: "Ocupada", records.SpotReserved: "Reservada hoy"}

func (s recordsPages) renderParkingPage(w http.ResponseWriter, r *http.Request, b records.ParkingBoard, seq uint64) {
	v := parkingPageView{Seq: seq, Occupied: b.Occupied, Reserved: b.Reserved, Free: b.Free, Capacity: b.Capacity,
		Updated: b.UpdatedAt.In(s.cfg.Location).Format("15:04:05"), Chart: s.occupancyChart(r.Context(), r)}
	if len(b.Day) == 10 {
		v.Day = b.Day[8:10] + "/" + b.Day[5:7] + "/" + b.Day[0:4]
	}
	for _, sp := range b.Spots {
		sv := parkingSpotView{Code: sp.Code, Status: sp.Status, Label: spotLabels[sp.Status], Res: s.parkingRes(sp.Reservation), Overdue: sp.Overdue}
		for _, u := range sp.Upcoming {
			sv.Upcoming = append(sv.Upcoming, s.parkingRes(u))
		}
		v.Spots = append(v.Spots, sv)
	}
	s.render(w, r, http.StatusOK, "admin_parking.html", "title.parking", v)
}
