package records

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/input"
	"parking/internal/localtime"
	"parking/internal/reservation"
	"parking/internal/store"
)

// HistoryPageSize is the spec's page size (Limits: history page size 15).
const HistoryPageSize = 15

// maxHistoryPage keeps (page - 1) × 15 far from overflow; any page past the data
// is simply empty (1.5 billion rows of offset).
const maxHistoryPage = 100_000_000

// HistoryQuery is the history's query string as sent (docs/admin.md#history).
type HistoryQuery struct {
	Status   string // one of the four states; "" for all
	Search   string // part of the customer's name or plate
	DateFrom string // YYYY-MM-DD, first local day of entry_date included
	DateTo   string // YYYY-MM-DD, last local day of entry_date included
	// BookedFrom and BookedTo (YYYY-MM-DD, both included) bound the local day the
	// reservation was made (reservation_date): staff reconcile online sales by it.
	BookedFrom, BookedTo string
	// Channel (web, counter, partner:<id>) keeps the reservations sold through it
	// (docs/partners.md#channels); "" for all.
	Channel string
	Page    int // from 1; anything smaller is page 1
}

// HistoryPage is one page of the history.
type HistoryPage struct {
	Rows       []reservation.HistoryRow
	Total      int
	Page       int
	PageSize   int
	TotalPages int
}

// History lists reservations newest first (reservation_date, then id, descending),
// 15 per page with offset (page - 1) × 15, with the total count (spec, GET
// /admin/history). dateFrom and dateTo are local calendar days of the facility
// (docs/dates.md#local-days) applied to entry_date, the day the stay begins (docs/admin.md#history:
// "which cars came in that week"); bookedFrom and bookedTo likewise to
// reservation_date, the day the reservation was made. All ends are inclusive. An
// unknown status or a malformed date is refused naming it.
func (s *Service) History(ctx context.Context, q HistoryQuery) (HistoryPage, error) {
	f, err := s.historyFilter(ctx, q)
	if err != nil {
		return HistoryPage{}, err
	}
	page := max(q.Page, 1)
	// Pages past maxHistoryPage are past any data: the offset is capped, not the
	// page number the caller asked for.
	f.Limit, f.Offset = HistoryPageSize, (min(page, maxHistoryPage)-1)*HistoryPageSize
	rows, total, err := s.store.Records().History(ctx, f)
	if err != nil {
		return HistoryPage{}, fmt.Errorf("history: %w", err)
	}
	return HistoryPage{
		Rows: rows, Total: total, Page: page, PageSize: HistoryPageSize,
		TotalPages: (total + HistoryPageSize - 1) / HistoryPageSize,
	}, nil
}

// historyFilter checks and converts the history's query string (all but the page).
func (s *Service) historyFilter(ctx context.Context, q HistoryQuery) (store.HistoryFilter, error) {
	var f store.HistoryFilter
	if st := strings.TrimSpace(q.Status); st != "" {
		status, ok := reservation.ParseStatus(strings.ToUpper(st))
		if !ok {
			return f, fault.Coded(fault.Invalid, "err.records.status", "Value", st)
		}
		f.Status = status
	}
	if ch := strings.TrimSpace(q.Channel); ch != "" {
		if !reservation.ValidChannel(ch) {
			return f, fault.Coded(fault.Invalid, "err.records.channel", "Field", i18n.FieldName("channel"), "Value", ch)
		}
		f.Channel = ch
	}
	search, err := input.Search("search", q.Search)
	if err != nil {
		return f, err
	}
	f.Search = search
	if search != "" {
		// docs/admin.md#history: the search also finds a customer by phone typed in any form
		// (the stored E.164), a vehicle by its plate typed with spaces or dashes, and
		// a reservation by its id.
		f.Phone, _ = s.input.PhoneLookup(search)
		f.Plate = input.PlateForm(search)
		if id, ok := input.IDLookup(search); ok {
			f.ID = id
		}
		// docs/admin.md#history: and a reservation by its booking reference, typed with
		// or without the dash, in any case. A reference made of digits only that
		// exists wins over the same digits read as an id.
		if ref, ok := input.ReferenceLookup(search); ok {
			r, err := s.store.Reservations().ReservationByReference(ctx, ref)
			switch {
			case err == nil:
				f.ID = r.ID
			case !errors.Is(err, store.ErrNotFound):
				return f, err
			}
		}
	}
	if f.EntryFrom, f.EntryTo, err = s.dayRange("dateFrom", q.DateFrom, "dateTo", q.DateTo); err != nil {
		return f, err
	}
	if f.BookedFrom, f.BookedTo, err = s.dayRange("bookedFrom", q.BookedFrom, "bookedTo", q.BookedTo); err != nil {
		return f, err
	}
	return f, nil
}

// dayRange reads a pair of optional local days (YYYY-MM-DD, docs/dates.md#local-days) as the
// instants [first day's midnight, the day after the last one's midnight); a zero
// time stands for a side not given. The fields are named in the refusals.
func (s *Service) dayRange(fromName, fromDay, toName, toDay string) (from, to time.Time, err error) {
	if d := strings.TrimSpace(fromDay); d != "" {
		if _, from, _, err = localtime.ParseDay(d, s.loc); err != nil {
			return from, to, fault.Coded(fault.Invalid, "err.records.day", "Field", i18n.FieldName(fromName), "Value", d)
		}
	}
	if d := strings.TrimSpace(toDay); d != "" {
		if _, _, to, err = localtime.ParseDay(d, s.loc); err != nil {
			return from, to, fault.Coded(fault.Invalid, "err.records.day", "Field", i18n.FieldName(toName), "Value", d)
		}
	}
	if !from.IsZero() && !to.IsZero() && !from.Before(to) {
		return from, to, fault.Coded(fault.Invalid, "err.records.days_order",
			"FromField", i18n.FieldName(fromName), "From", strings.TrimSpace(fromDay), "ToField", i18n.FieldName(toName), "To", strings.TrimSpace(toDay))
	}
	return from, to, nil
}

// HistoryEach calls fn with every reservation the history's filters match (q.Page
// is ignored), in the history's order, streamed: the CSV export of the history.
// The filters are checked as History checks them.
func (s *Service) HistoryEach(ctx context.Context, q HistoryQuery, fn func(reservation.HistoryRow) error) error {
	f, err := s.historyFilter(ctx, q)
	if err != nil {
		return err
	}
	return s.store.Records().HistoryEach(ctx, f, fn)
}

// ParkingSpot is one spot on the board: occupied (a vehicle is in: EN CURSO) or
// reserved (a PENDIENTE reservation holds it today).
type ParkingSpot struct {
	Code        string
	Status      string // "occupied" or "reserved"
	Reservation reservation.ParkingRow
	// Upcoming are the other reservations holding the spot today (PENDIENTE),
	// after the one shown.
	Upcoming []reservation.ParkingRow
	// Overdue: the car in the spot is still in after its exit date
	// (docs/board.md#overdue).
	Overdue bool
}

// Board statuses of a spot.
const (
	SpotOccupied = "occupied"
	SpotReserved = "reserved"
)

// ParkingBoard is the real-time parking page's data.
type ParkingBoard struct {
	Spots     []ParkingSpot
	Occupied  int
	Reserved  int
	Capacity  int  // 0: not configured
	Free      *int // capacity − occupied, when a capacity is configured
	Day       string
	UpdatedAt time.Time
}

// ParkingBoard reads which spots are occupied now and which are reserved for today
// (the facility's local day). capacity is the number of places (0: unknown).
func (s *Service) ParkingBoard(ctx context.Context, capacity int) (ParkingBoard, error) {
	now := s.now()
	from, to := localtime.DayRange(now, s.loc)
	rows, err := s.store.Records().ParkingBoard(ctx, from, to)
	if err != nil {
		return ParkingBoard{}, err
	}
	b := ParkingBoard{Spots: []ParkingSpot{}, Capacity: capacity, Day: from.Format("2006-01-02"), UpdatedAt: now}
	byCode := map[string]*ParkingSpot{}
	var order []string
	for _, r := range rows {
		code := *r.Reservation.Spot
		sp, ok := byCode[code]
		if !ok {
			sp = &ParkingSpot{Code: code, Upcoming: []reservation.ParkingRow{}}
			byCode[code] = sp
			order = append(order, code)
		}
		switch {
		case sp.Status == "":
			sp.Reservation, sp.Status = r, statusOnBoard(r)
		case sp.Status == SpotReserved && r.Reservation.Status == reservation.InCourse:
			// The vehicle in the spot comes first; the pending one waits.
			sp.Upcoming = append([]reservation.ParkingRow{sp.Reservation}, sp.Upcoming...)
			sp.Reservation, sp.Status = r, SpotOccupied
		default:
			sp.Upcoming = append(sp.Upcoming, r)
		}
	}
	for _, code := range order {
		sp := byCode[code]
		sp.Overdue = sp.Reservation.Reservation.Overdue(now)
		if sp.Status == SpotOccupied {
			b.Occupied++
		} else {
			b.Reserved++
		}
		b.Spots = append(b.Spots, *sp)
	}
	if capacity > 0 {
		free := max(capacity-b.Occupied, 0)
		b.Free = &free
	}
	return b, nil
}

func statusOnBoard(r reservation.ParkingRow) string {
	if r.Reservation.Status == reservation.InCourse {
		return SpotOccupied
	}
	return SpotReserved
}
