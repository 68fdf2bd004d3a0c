package ui

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"parking/internal/records"
	"parking/internal/reservation"
	"parking/internal/web/httpx"
)

// historyQuery reads the history's filters from the query string (spec, GET
// /admin/history): status, search, dateFrom, dateTo (entry days, docs/admin.md#history),
// bookedFrom, bookedTo (booking days) and page (anything that is not a positive
// integer counts as 1).
func historyQuery(r *http.Request) records.HistoryQuery {
	q := r.URL.Query()
	page, err := strconv.Atoi(strings.TrimSpace(q.Get("page")))
	if err != nil || page < 1 {
		page = 1
	}
	return records.HistoryQuery{Status: q.Get("status"), Search: q.Get("search"), DateFrom: q.Get("dateFrom"), DateTo: q.Get("dateTo"), Channel: q.Get("channel"),
		BookedFrom: q.Get("bookedFrom"), BookedTo: q.Get("bookedTo"), Page: page}
}

// adminHistory is GET /admin/history?status=&search=&dateFrom=&dateTo=&bookedFrom=&bookedTo=&page=
// (docs/errors.md#json-on-web-routes). Browsers get the history page; JSON clients {reservations,
// total_count, page, page_size: 15, total_pages}. A page past the end is empty. An
// unknown status or a malformed date is a 400 (the page shows the message).
func (s recordsPages) adminHistory(w http.ResponseWriter, r *http.Request) {
	hq := historyQuery(r)
	h, err := s.records.History(r.Context(), hq)
	if !httpx.WantsJSON(r) {
		s.renderHistoryPage(w, r, hq, h, err)
		return
	}
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	items := make([]adminListItemJSON, len(h.Rows))
	for i, row := range h.Rows {
		items[i] = s.adminHistoryItem(row)
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"reservations": items, "total_count": h.Total, "page": h.Page, "page_size": h.PageSize, "total_pages": h.TotalPages,
	})
}

// historyPageView is the data of admin_history.html.
type historyPageView struct {
	Status, Search, DateFrom, DateTo string
	BookedFrom, BookedTo             string
	Statuses                         []historyStatusOption
	Rows                             []historyRowView
	Total, Page, Pages               int
	FirstShown, LastShown            int
	First, Prev, Next, Last          string // page addresses; "" where there is none
	ExportURL                        string
	Filtered                         bool
	Error                            string
}

type historyStatusOption struct {
	Value    string
	Selected bool
}

type historyRowView struct {
	ID                                       int64
	Booked, Entry, Exit                      string
	Status, StatusClass                      string
	Customer, Phone, Plate, Vehicle, Service string
	Spot, Total                              string
	Account                                  string // the customer's stored name, when the contact's differs (docs/public-booking.md#privacy-of-anonymous-bookings)
}

// historyURL is path with the filters of hq and the page (page 1 is left out).
func historyURL(path string, hq records.HistoryQuery, page int) string {
	v := url.Values{}
	for k, val := range map[string]string{"status": hq.Status, "search": hq.Search, "dateFrom": hq.DateFrom, "dateTo": hq.DateTo,
		"bookedFrom": hq.BookedFrom, "bookedTo": hq.BookedTo} {
		if strings.TrimSpace(val) != "" {
			v.Set(k, val)
		}
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	if len(v) == 0 {
		return path
	}
	return path + "?" + v.Encode()
}

// renderHistoryPage renders one page of the history, or the refusal of its filters.
func (s recordsPages) renderHistoryPage(w http.ResponseWriter, r *http.Request, hq records.HistoryQuery, h records.HistoryPage, err error) {
	wd := s.words(r)
	v := historyPageView{Status: hq.Status, Search: hq.Search, DateFrom: hq.DateFrom, DateTo: hq.DateTo, BookedFrom: hq.BookedFrom, BookedTo: hq.BookedTo}
	v.Filtered = strings.TrimSpace(hq.Status+hq.Search+hq.DateFrom+hq.DateTo+hq.BookedFrom+hq.BookedTo) != ""
	for _, st := range reservation.Statuses {
		v.Statuses = append(v.Statuses, historyStatusOption{Value: string(st), Selected: strings.EqualFold(strings.TrimSpace(hq.Status), string(st))})
	}
	status := http.StatusOK
	if err != nil {
		status = s.FailureStatus(r, err)
		v.Error = s.failText(r, err)
		s.render(w, r, status, "admin_history.html", "title.history", v)
		return
	}
	v.Total, v.Page, v.Pages = h.Total, h.Page, h.TotalPages
	v.ExportURL = historyURL("/admin/history.csv", hq, 1)
	if len(h.Rows) > 0 {
		v.FirstShown = (h.Page-1)*h.PageSize + 1
		v.LastShown = v.FirstShown + len(h.Rows) - 1
	}
	if h.Page > 1 {
		v.First = historyURL("/admin/history", hq, 1)
		v.Prev = historyURL("/admin/history", hq, min(h.Page-1, max(h.TotalPages, 1)))
	}
	if h.Page < h.TotalPages {
		v.Next = historyURL("/admin/history", hq, h.Page+1)
		v.Last = historyURL("/admin/history", hq, h.TotalPages)
	}
	for _, row := range h.Rows {
		res := row.Reservation
		v.Rows = append(v.Rows, historyRowView{
			ID: res.ID, Booked: s.shortTime(res.ReservationDate), Entry: s.shortTime(res.Entry), Exit: s.optTime(res.Exit),
			Status: string(res.Status), StatusClass: statusClass(string(res.Status)),
			Customer: row.CustomerName, Phone: deref(row.Phone), Plate: row.LicensePlate,
			Vehicle: vehicleDescription(row.Brand, row.Model), Service: row.MainServiceName,
			Spot: deref(res.Spot), Total: wd.money(res.TotalPrice),
		})
		if row.AccountName != row.CustomerName {
			v.Rows[len(v.Rows)-1].Account = row.AccountName
		}
	}
	s.render(w, r, status, "admin_history.html", "title.history", v)
}
