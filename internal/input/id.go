package input

import (
	"strconv"
	"strings"

	"parking/internal/fault"
	"parking/internal/i18n"
)

// IDLookup reads a reservation's (or any record's) number as typed in a search:
// digits only, spaces around them ignored, above zero (docs/input-rules.md#other-identifiers).
func IDLookup(raw string) (int64, bool) {
	id, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
	return id, err == nil && id > 0
}

// ReservationID is an optional reservation number of a filter: 0 when blank, else
// what IDLookup reads, or a refusal that repeats the value.
func ReservationID(field, raw string) (int64, error) {
	if Blank(raw) {
		return 0, nil
	}
	id, ok := IDLookup(raw)
	if !ok {
		return 0, fault.Coded(fault.Invalid, "err.records.reservation_number", "Field", i18n.FieldName(field), "Value", strings.TrimSpace(raw))
	}
	return id, nil
}
