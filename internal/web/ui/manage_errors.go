package ui

import (
	"errors"
	"slices"

	"parking/internal/fault"
)

// The manage page's refusals travel back to it as a code in ?error=, never as
// words: the page shows the catalogue's message of the code, and a generic one for
// a code it does not know (docs/manage-booking.md#pages), so a link cannot make the
// page say anything.

// customerStatusKey prefixes the reservation states in the customer's words: a
// PENDIENTE booking is "confirmed", as its confirmation said.
const customerStatusKey = "arrival.status."

// manageErrors are the codes and their catalogue keys.
var manageErrors = map[string]string{
	"estado":   "arrival.error.estado",   // the state no longer allows it
	"ocupado":  "arrival.error.ocupado",  // no room (spot or capacity) for the new dates
	"fechas":   "arrival.error.fechas",   // the dates break a rule
	"servicio": "arrival.error.servicio", // an unknown or retired service
	"datos":    "arrival.error.datos",    // any other refusal
}

// dateCodes are the refusals of the stay's dates that name no field.
var dateCodes = []string{"err.booking.exit_before_entry", "err.booking.entry_before_now", "err.booking.entry_passed",
	"err.booking.exit_needed", "err.booking.exit_passed", "err.booking.stay_dates"}

// manageErrorCode is the code of a refusal of the manage page's forms.
func manageErrorCode(err error) string {
	var code string
	if e := (*fault.Error)(nil); errors.As(err, &e) {
		code = e.Code
	}
	fields := fault.Fields(err)
	switch {
	case code == "err.booking.not_editable" || code == "err.booking.customer_cancel_status":
		return "estado"
	case fault.KindOf(err) == fault.Conflict:
		return "ocupado"
	case slices.Contains(dateCodes, code) || slices.Contains(fields, "entry_date") || slices.Contains(fields, "exit_date"):
		return "fechas"
	case code == "msg.bad_service" || code == "err.booking.main_service_unknown" ||
		slices.Contains(fields, "id_main_service") || slices.Contains(fields, "additional_services"):
		return "servicio"
	}
	return "datos"
}

// manageErrorKey is the catalogue key of a code; an unknown code gets the generic
// message.
func manageErrorKey(code string) string {
	if k, ok := manageErrors[code]; ok {
		return k
	}
	return "arrival.error.generico"
}
