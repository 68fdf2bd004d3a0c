package ui

import (
	"net/http"
	"time"

	"parking/internal/gate"
	"parking/internal/localtime"
	"parking/internal/web/httpx"
)

// The gate's cameras (docs/gate.md): GET /admin/devices lists them (page, or JSON
// {"devices":[…]}); POST /admin/devices {"name"} registers one — 201
// {"success":true,"id","name","token"}, the token shown this once (a browser's form
// post gets the page with it); DELETE /admin/devices/{id} removes one (204; the
// page's form posts …/delete and is sent back). GET /admin/gate lists the latest
// events (page, or JSON {"events":[…]}).
type gatePages struct{ *base }

func (s gatePages) routes(mux *http.ServeMux) {
	admin := s.adminOnly(mux)
	admin("GET /admin/devices", s.adminDevices)
	admin("POST /admin/devices", s.adminRegisterDevice)
	admin("DELETE /admin/devices/{id}", s.adminDeleteDevice)
	admin("POST /admin/devices/{id}/delete", s.adminDeleteDevice)
	admin("GET /admin/gate", s.adminGateEvents)
}

// deviceJSON is one camera on the wire.
type deviceJSON struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	CreatedAt string `json:"created_at"`
}

// devicesView is the data of admin_devices.html.
type devicesView struct {
	Notice, Error string
	Devices       []gate.Device
	New           *gate.Device // just registered: its token is shown once
}

func (s gatePages) adminDevices(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.devicesPage(w, r, devicesView{Notice: q.Get("ok"), Error: q.Get("error")})
}

func (s gatePages) devicesPage(w http.ResponseWriter, r *http.Request, v devicesView) {
	list, err := s.gate.Devices(r.Context())
	if err != nil {
		s.listUnavailable(w, r, err, "error.devices_unavailable")
		return
	}
	if httpx.WantsJSON(r) {
		items := make([]deviceJSON, len(list))
		for i, d := range list {
			items[i] = deviceJSON{ID: d.ID, Name: d.Name, CreatedAt: localtime.JSON(d.CreatedAt, s.cfg.Location)}
		}
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"devices": items})
		return
	}
	v.Devices = list
	status := http.StatusOK
	if v.New != nil {
		status = http.StatusCreated
	}
	s.render(w, r, status, "admin_devices.html", "title.devices", v)
}

// adminRegisterDevice is POST /admin/devices {"name"}.
func (s gatePages) adminRegisterDevice(w http.ResponseWriter, r *http.Request) {
	page := httpx.BrowserForm(r)
	in, err := httpx.ReadInput(w, r)
	var d gate.Device
	if err == nil {
		d, err = s.gate.RegisterDevice(r.Context(), in.Str("name"))
	}
	switch {
	case page && err != nil:
		s.backToPage(w, r, "/admin/devices", "", err)
	case page:
		s.devicesPage(w, r, devicesView{Notice: s.T(r, "msg.device_registered"), New: &d})
	case err != nil:
		s.WriteSuccessFalse(w, r, err)
	default:
		httpx.WriteJSON(w, http.StatusCreated, map[string]any{"success": true, "id": d.ID, "name": d.Name, "token": d.Token})
	}
}

// adminDeleteDevice is DELETE /admin/devices/{id} (and the page's POST …/delete).
func (s gatePages) adminDeleteDevice(w http.ResponseWriter, r *http.Request) {
	id, err := httpx.PathID(r, "id", httpx.PathDevice)
	if err == nil {
		err = s.gate.DeleteDevice(r.Context(), id)
	}
	switch {
	case httpx.BrowserForm(r):
		s.backToPage(w, r, "/admin/devices", s.T(r, "msg.device_deleted"), err)
	case err != nil:
		s.WriteSuccessFalse(w, r, err)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// gateEventJSON is one camera event on the wire.
type gateEventJSON struct {
	ID            int64  `json:"id"`
	Plate         string `json:"plate"`
	Direction     string `json:"direction"`
	At            string `json:"at"`
	Open          bool   `json:"open"`
	ReservationID *int64 `json:"id_reservation"`
}

// gateEventRow is one event on the page.
type gateEventRow struct {
	gateEventJSON
	When time.Time
}

// adminGateEvents is GET /admin/gate: the latest events, newest first.
func (s gatePages) adminGateEvents(w http.ResponseWriter, r *http.Request) {
	list, err := s.gate.Events(r.Context())
	if err != nil {
		s.listUnavailable(w, r, err, "error.devices_unavailable")
		return
	}
	rows := make([]gateEventRow, len(list))
	items := make([]gateEventJSON, len(list))
	for i, e := range list {
		items[i] = gateEventJSON{ID: e.ID, Plate: e.Plate, Direction: e.Direction, At: localtime.JSON(e.At, s.cfg.Location),
			Open: e.Open, ReservationID: e.ReservationID}
		rows[i] = gateEventRow{gateEventJSON: items[i], When: e.At}
	}
	if httpx.WantsJSON(r) {
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"events": items})
		return
	}
	s.render(w, r, http.StatusOK, "admin_gate.html", "title.gate", rows)
}
