package web

import (
	"net/http"
	"strconv"
	"strings"

	"parking/internal/booking"
)

// adminHistory is GET /admin/history?status=&search=&dateFrom=&dateTo=&page= (spec;
// CONTRACT §6): {reservations, total_count, page, page_size: 15, total_pages}.
// page defaults to 1 and anything that is not a positive integer counts as 1; a
// page past the end is empty. An unknown status or a malformed date is a 400.
func (s *Server) adminHistory(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	page, err := strconv.Atoi(strings.TrimSpace(q.Get("page")))
	if err != nil || page < 1 {
		page = 1
	}
	h, err := s.booking.History(r.Context(), booking.HistoryQuery{
		Status: q.Get("status"), Search: q.Get("search"), DateFrom: q.Get("dateFrom"), DateTo: q.Get("dateTo"), Page: page,
	})
	if err != nil {
		s.writeSuccessFalse(w, r, err)
		return
	}
	items := make([]adminListItemJSON, len(h.Rows))
	for i, row := range h.Rows {
		items[i] = s.adminHistoryItem(row)
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"reservations": items, "total_count": h.Total, "page": h.Page, "page_size": h.PageSize, "total_pages": h.TotalPages,
	})
}
