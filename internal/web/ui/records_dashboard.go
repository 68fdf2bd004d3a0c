package ui

import (
	"errors"
	"net/http"

	"parking/internal/account"
	"parking/internal/fault"
	"parking/internal/localtime"
	"parking/internal/web/api"
	"parking/internal/web/httpx"
)

// dashboardView is the data of admin_dashboard.html.
type dashboardView struct {
	Date  string // the day shown, YYYY-MM-DD
	Today string // today in the facility's zone
	Now   string // the server's clock (RFC 3339): the script judges token expiry by it
	Error string
	Chart *occupancyChartView // today and the next 14 days (docs/capacity.md#what-counts)
}

// adminDashboard is GET /admin/dashboard (docs/admin.md). The page
// shows a date picker, the day's three counts (entries, exits, their sum) and the
// two lists, which its script loads from GET /api/reservations with a token
// obtained through the session (POST /admin/api-token). JSON clients get the day
// and its counts: {"date","stats":{"total_entries","total_exits","total"}}.
func (s recordsPages) adminDashboard(w http.ResponseWriter, r *http.Request) {
	date := r.URL.Query().Get("date")
	if httpx.WantsJSON(r) {
		b, err := s.records.DailyBoard(r.Context(), date)
		if err != nil {
			s.WriteSuccessFalse(w, r, err)
			return
		}
		httpx.WriteJSON(w, http.StatusOK, map[string]any{
			"date": b.Day,
			"stats": map[string]int{
				"total_entries": len(b.Entries), "total_exits": len(b.Exits), "total": len(b.Entries) + len(b.Exits),
			},
		})
		return
	}
	today, _, _, err := s.records.ParseBoardDay("")
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	v := dashboardView{Today: today, Now: localtime.JSON(s.now(), s.cfg.Location)}
	status := http.StatusOK
	day, _, _, err := s.records.ParseBoardDay(date)
	if err != nil {
		status = http.StatusBadRequest
		v.Error = s.T(r, "msg.bad_day")
		day = v.Today
		if fault.KindOf(err) == fault.Internal {
			status = s.FailureStatus(r, err)
		}
	}
	v.Date = day
	v.Chart = s.occupancyChart(r.Context(), r)
	s.render(w, r, status, "admin_dashboard.html", "title.dashboard", v)
}

// adminAPIToken is POST /admin/api-token (session ADMIN): a token for the
// dashboard page, bound to the session (docs/accounts.md#sessions: the dashboard obtains its
// token through its session); logout revokes it.
func (s recordsPages) adminAPIToken(w http.ResponseWriter, r *http.Request) {
	t, err := s.accounts.IssueSessionToken(r.Context(), httpx.SessionToken(r), s.cfg.TokenTTL)
	if errors.Is(err, account.ErrNoSession) {
		httpx.DenyNoSession(w, r)
		return
	}
	if err != nil {
		s.WriteErrorField(w, r, err)
		return
	}
	api.WriteToken(w, t, s.cfg.Location)
}
