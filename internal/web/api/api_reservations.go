package api

import (
	"context"
	"net/http"
	"time"

	"parking/internal/localtime"
	"parking/internal/records"
	"parking/internal/reservation"
	"parking/internal/web/httpx"
)

// boardItemJSON is the spec's reservation item of GET /api/reservations.
type boardItemJSON struct {
	IDReservation int64   `json:"id_reservation"`
	EntryDate     string  `json:"entry_date"`
	ExitDate      *string `json:"exit_date"`
	Status        string  `json:"status"`
	LicensePlate  string  `json:"license_plate"`
	Brand         string  `json:"brand"`
	Color         string  `json:"color"`
	CustomerName  string  `json:"customer_name"`
	Phone         string  `json:"phone"`
	ServiceName   string  `json:"service_name"`
	// ArrivedAt: when a gate camera saw the car come in (docs/gate.md#arrival), entries
	// only; left out otherwise, so an item keeps the spec's ten fields.
	ArrivedAt *string `json:"arrived_at,omitempty"`
}

type boardStatsJSON struct {
	TotalEntries int `json:"total_entries"`
	TotalExits   int `json:"total_exits"`
	TotalOverdue int `json:"total_overdue"`
}

type boardJSON struct {
	Date    string          `json:"date"`
	Stats   boardStatsJSON  `json:"stats"`
	Entries []boardItemJSON `json:"entries"`
	Exits   []boardItemJSON `json:"exits"`
	// Overdue: the cars still in after their exit date, as of now; today only
	// (docs/board.md#overdue).
	Overdue []boardItemJSON `json:"overdue"`
}

func (s *Server) boardItems(items []reservation.BoardItem) []boardItemJSON {
	out := make([]boardItemJSON, len(items))
	for i, it := range items {
		out[i] = boardItemJSON{
			IDReservation: it.ID, EntryDate: localtime.JSON(it.Entry, s.cfg.Location), Status: string(it.Status),
			LicensePlate: it.LicensePlate, Brand: it.Brand, Color: it.Color,
			CustomerName: it.CustomerName, Phone: it.Phone, ServiceName: it.ServiceName,
		}
		if it.Exit != nil {
			e := localtime.JSON(*it.Exit, s.cfg.Location)
			out[i].ExitDate = &e
		}
		if it.ArrivedAt != nil {
			a := localtime.JSON(*it.ArrivedAt, s.cfg.Location)
			out[i].ArrivedAt = &a
		}
	}
	return out
}

func (s *Server) boardView(b records.Board) boardJSON {
	return boardJSON{
		Date:    b.Day,
		Stats:   boardStatsJSON{TotalEntries: len(b.Entries), TotalExits: len(b.Exits), TotalOverdue: len(b.Overdue)},
		Entries: s.boardItems(b.Entries),
		Exits:   s.boardItems(b.Exits),
		Overdue: s.boardItems(b.Overdue),
	}
}

// apiReservations is GET /api/reservations (spec; administrator bearer token, see
// RequireAdminToken): the reservations entering and leaving on ?date= (default
// today), as local calendar days of the facility (docs/dates.md#local-days). Invalid date: 400
// {error}; a failed query: 500 {error} with a generic message. Today's board adds
// the overdue cars as of now. Bodies are cached per day while the board version
// stands and, for today, until the next exit passes (boardCache).
func (s *Server) apiReservations(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	day, _, _, err := s.records.ParseBoardDay(r.URL.Query().Get("date"))
	if err != nil {
		s.WriteErrorField(w, r, err)
		return
	}
	version, err := s.records.BoardVersion(ctx)
	if err != nil {
		s.WriteErrorField(w, r, err)
		return
	}
	body, err := s.boards.load(day, version, s.records.Now(), func() (int64, []byte, time.Time, error) {
		// Requests waiting for this read share it: it runs to its end even if
		// the client that started it goes away.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		b, err := s.records.DailyBoard(ctx, day)
		if err != nil {
			return 0, nil, time.Time{}, err
		}
		return b.Version, appendBoardJSON(make([]byte, 0, 256+300*(len(b.Entries)+len(b.Exits)+len(b.Overdue))), b, s.cfg.Location), b.Until, nil
	})
	if err != nil {
		s.WriteErrorField(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	httpx.WriteBody(w, r, http.StatusOK, body.json, body.gz)
}
