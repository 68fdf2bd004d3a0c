package ui

import "net/http"

// recordsPages are the staff's read side (docs/admin.md): the day's dashboard
// with its API token, the history and its CSV export, the parking board and its
// events, and the audit trail (docs/staff-and-audit.md).
type recordsPages struct{ *base }

func (s recordsPages) routes(mux *http.ServeMux) {
	admin := s.adminOnly(mux)
	admin("GET /admin/dashboard", s.adminDashboard)
	admin("POST /admin/api-token", s.adminAPIToken)
	admin("GET /admin/history", s.adminHistory)
	admin("GET /admin/history.csv", s.adminHistoryCSV)
	admin("GET /admin/parking", s.adminParking)
	admin("GET /admin/parking/events", s.adminParkingEvents)
	admin("GET /admin/audit", s.adminAudit)
	admin("GET /admin/find", s.adminFind) // docs/admin.md#find
	mux.HandleFunc("GET /r/{reference}", s.shortLink)
}
