package records

import (
	"context"
	"fmt"
	"strings"
	"time"

	"parking/internal/fault"
	"parking/internal/localtime"
	"parking/internal/reservation"
)

// Board is the administrators' daily board (docs/board.md): the
// reservations entering and leaving on one calendar day of the facility.
type Board struct {
	Version int64     // the board version read with it (store.BoardVersion)
	Day     string    // YYYY-MM-DD, the day used
	From    time.Time // local midnight starting the day
	To      time.Time // next local midnight (23 or 25 hours later on a DST change)
	Entries []reservation.BoardItem
	Exits   []reservation.BoardItem
	// Overdue are the cars still in after their exit date (EN CURSO, exit passed) as
	// of now, ordered by exit date: only on today's board, empty on any other day
	// (docs/board.md#overdue).
	Overdue []reservation.BoardItem
	// Until is when this board stops being true by time alone (today's: the next
	// exit to pass, or midnight); zero for another day, which time does not change.
	Until time.Time
}

// ParseBoardDay reads the board's date parameter: "" is today in the facility's
// zone (docs/board.md: default today); "YYYY-MM-DD" is that day; a date-time (any
// docs/dates.md#local-days form) is the local day it falls on, its time ignored (spec: compared
// by date component only).
func (s *Service) ParseBoardDay(date string) (day string, from, to time.Time, err error) {
	date = strings.TrimSpace(date)
	if date == "" {
		from, to = localtime.DayRange(s.now(), s.loc)
		return from.Format("2006-01-02"), from, to, nil
	}
	invalid := fault.Coded(fault.Invalid, "err.records.board_day", "Value", date)
	if day, from, to, err = localtime.ParseDay(date, s.loc); err == nil {
		// The same years localtime.Parse accepts: nobody parks in 1800.
		if from.Year() < 1900 || from.Year() > 2200 {
			return "", time.Time{}, time.Time{}, invalid
		}
		return day, from, to, nil
	}
	t, perr := localtime.Parse(date, s.loc)
	if perr != nil {
		return "", time.Time{}, time.Time{}, invalid
	}
	from, to = localtime.DayRange(t, s.loc)
	return from.Format("2006-01-02"), from, to, nil
}

// DailyBoard lists the reservations whose entry date, and those whose exit date,
// fall on the local calendar day named by date (see ParseBoardDay; docs/dates.md#local-days:
// [local midnight, next local midnight)). Both lists are ordered by entry date
// ascending; a reservation entering and leaving that day is in both; one without an
// exit date is never among the exits. Today's board adds the overdue reservations
// as of now (docs/board.md#overdue).
func (s *Service) DailyBoard(ctx context.Context, date string) (Board, error) {
	day, from, to, err := s.ParseBoardDay(date)
	if err != nil {
		return Board{}, err
	}
	now := s.now()
	var at time.Time // the overdue list is today's alone
	if !now.Before(from) && now.Before(to) {
		at = now
	}
	m, err := s.store.Records().DayMovements(ctx, from, to, at)
	if err != nil {
		return Board{}, fmt.Errorf("daily board %s: %w", day, err)
	}
	b := Board{Version: m.Version, Day: day, From: from, To: to, Entries: m.Entries, Exits: m.Exits, Overdue: m.Overdue}
	if !at.IsZero() {
		// An exit at the instant e is passed just after it.
		b.Until = to
		if m.NextExit != nil && m.NextExit.Before(to) {
			b.Until = m.NextExit.Add(time.Nanosecond)
		}
	}
	return b, nil
}

// Now is the service's clock: what "now" means for a board's Until.
func (s *Service) Now() time.Time { return s.now() }

// BoardVersion is the current board version: while it stays the same, every day's
// board stays the same, so a board read at this version may be served again.
func (s *Service) BoardVersion(ctx context.Context) (int64, error) {
	return s.store.Records().BoardVersion(ctx)
}

// OverdueCount is how many cars are still in after their exit date now
// (docs/board.md#overdue), for the metrics.
func (s *Service) OverdueCount(ctx context.Context) (int, error) {
	return s.store.Records().CountOverdue(ctx, s.now())
}

// FreeSpots suggests up to 8 spots for reservation r at check-in: codes used in
// the last 180 days that no other open stay holds over r's stay
// (docs/reservations.md#check-in-on-a-phone). Spots have no list of their own: the
// codes staff typed are the car park's.
func (s *Service) FreeSpots(ctx context.Context, r reservation.Reservation) ([]string, error) {
	return s.store.Records().FreeSpots(ctx, r.ID, r.Entry, r.Exit, s.now().AddDate(0, 0, -180), 8)
}
