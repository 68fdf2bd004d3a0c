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

// PathID reads the positive integer path value {name}; anything else names
// nothing, a 404 in the spec's words: `<what> "<value>" no existe.` (what is
// "La reserva", "La tarifa"…).
func PathID(r *http.Request, name, what string) (int64, error) {
	id, ok := ParseID(r, name)
	if !ok {
		return 0, fault.New(fault.NotFound, "%s %q no existe.", what, r.PathValue(name))
	}
	return id, nil
}
