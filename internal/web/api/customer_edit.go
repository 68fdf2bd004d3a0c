package api

import (
	"net/http"
	"time"

	"parking/internal/booking"
	"parking/internal/web/httpx"
)

// customerEditRequest is the body of a customer's change to a booking
// (docs/errors.md#operation-responses), from the customer area or a manage link (docs/manage-booking.md#the-token): the same wire, the same
// operation rules.
type customerEditRequest struct {
	IDMainService      httpx.FlexInt  `json:"id_main_service"`
	EntryDate          string         `json:"entry_date"`
	ExitDate           string         `json:"exit_date"`
	AdditionalServices *httpx.FlexIDs `json:"additional_services"`
}

// ReadCustomerEdit decodes a customer's change: a field not sent (or null) keeps
// its value, "additional_services": [] removes them all (booking.CustomerEdit);
// dates read in loc (docs/dates.md#accepted-forms).
func ReadCustomerEdit(w http.ResponseWriter, r *http.Request, loc *time.Location) (booking.CustomerEdit, error) {
	var req customerEditRequest
	if err := httpx.DecodeJSON(w, r, &req); err != nil {
		return booking.CustomerEdit{}, err
	}
	in := booking.CustomerEdit{MainService: req.IDMainService.Value}
	if req.AdditionalServices != nil {
		in.Extras = append([]int64{}, (*req.AdditionalServices)...)
	}
	var err error
	in.Entry, in.Exit, err = httpx.ParseStayDates(req.EntryDate, req.ExitDate, loc)
	return in, err
}
