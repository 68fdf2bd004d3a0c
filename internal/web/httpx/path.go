package httpx

import (
	"net/http"
	"strconv"

	"parking/internal/fault"
)

// ParseID reads the positive integer path value {name}; ok is false when it is
// not one.
func ParseID(r *http.Request, name string) (id int64, ok bool) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	return id, err == nil && id > 0
}

// The things a path's {id} names, as PathID's refusals say them: each a catalogue
// key whose Spanish is the spec's `<what> "<value>" no existe.`
// (docs/languages.md#messages-as-codes).
const (
	PathReservation = "err.httpx.path_reservation"
	PathCustomer    = "err.httpx.path_customer"
	PathStaff       = "err.httpx.path_staff"
	PathPartner     = "err.httpx.path_partner"
	PathService     = "err.httpx.path_service"
	PathRate        = "err.httpx.path_rate"
	PathExtra       = "err.httpx.path_extra"
	PathDevice      = "err.httpx.path_device"
)

// PathID reads the positive integer path value {name}; anything else names
// nothing, a 404 coded what (one of the Path… keys above).
func PathID(r *http.Request, name, what string) (int64, error) {
	id, ok := ParseID(r, name)
	if !ok {
		return 0, fault.Coded(fault.NotFound, what, "Value", r.PathValue(name))
	}
	return id, nil
}
