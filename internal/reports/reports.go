// Package reports is the numbers the business runs on (docs/reports.md): for a range of
// local days, the revenue of the receipts issued, the occupancy of each day against the
// capacity, the bookings made and cancelled, the no-shows, the average stay and lead
// time; and the book of the invoices issued. It checks the range, asks the store for
// aggregates and assembles them; every amount is integer cents. It reads; it changes
// nothing.
package reports

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"parking/internal/booking"
	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/localtime"
	"parking/internal/money"
	"parking/internal/occupancy"
	"parking/internal/store"
)

// MaxDays is the longest range a report covers (two years and a day).
const MaxDays = 731

// NoShowAfter is how long past its entry a stay that never started counts as a no-show.
const NoShowAfter = 24 * time.Hour

// Availability is the per-day count of docs/capacity.md#what-counts (booking.Service.Availability).
type Availability func(ctx context.Context, span occupancy.Span) (booking.Availability, error)

// Service builds the reports.
type Service struct {
	store *store.Store
	loc   *time.Location
	now   func() time.Time
	avail Availability
}

// New builds the reports on st in the facility's zone loc; avail counts the days as the
// capacity rules do.
func New(st *store.Store, loc *time.Location, avail Availability) *Service {
	return &Service{store: st, loc: loc, now: st.Clock(), avail: avail}
}

// Query is a report's range as asked: local days YYYY-MM-DD, both included; empty
// sides default (Range).
type Query struct{ From, To string }

// Range is a checked range of local days, both included.
type Range struct{ First, Last occupancy.Day }

// Days is the number of days in the range.
func (r Range) Days() int { return int(r.Last-r.First) + 1 }

func (r Range) window(loc *time.Location) store.ReportWindow {
	return store.ReportWindow{From: r.First.Start(loc), To: (r.Last + 1).Start(loc), Loc: loc}
}

// Range checks q (docs/reports.md#range): both sides missing is the current month; one
// missing is the other's month; a malformed day, a reversed range or one over MaxDays
// days is refused naming the field.
func (s *Service) Range(q Query) (Range, error) {
	from, to := strings.TrimSpace(q.From), strings.TrimSpace(q.To)
	var r Range
	var err error
	if from != "" {
		if r.First, err = parseDay("from", from, s.loc); err != nil {
			return r, err
		}
	}
	if to != "" {
		if r.Last, err = parseDay("to", to, s.loc); err != nil {
			return r, err
		}
	}
	switch {
	case from == "" && to == "":
		r.First, r.Last = monthOf(occupancy.DayOf(s.now(), s.loc))
	case from == "":
		r.First, _ = monthOf(r.Last)
	case to == "":
		_, r.Last = monthOf(r.First)
	}
	if r.Last < r.First {
		return r, fault.Coded(fault.Invalid, "err.records.days_order",
			"FromField", i18n.FieldName("from"), "From", r.First.String(), "ToField", i18n.FieldName("to"), "To", r.Last.String())
	}
	if r.Days() > MaxDays {
		return r, fault.Coded(fault.Invalid, "err.reports.range_too_long", "Field", i18n.FieldName("to"),
			"From", r.First.String(), "To", r.Last.String(), "Days", r.Days(), "Max", MaxDays)
	}
	return r, nil
}

// parseDay reads a local day, from 1970 on (docs/dates.md#local-days).
func parseDay(field, v string, loc *time.Location) (occupancy.Day, error) {
	bad := fault.Coded(fault.Invalid, "err.records.day", "Field", i18n.FieldName(field), "Value", v)
	if _, _, _, err := localtime.ParseDay(v, loc); err != nil {
		return 0, bad
	}
	d, err := occupancy.ParseDay(v)
	if err != nil || d < 0 || d.Date().Year() > 9999 {
		return 0, bad
	}
	return d, nil
}

// monthOf is the first and last day of d's month.
func monthOf(d occupancy.Day) (first, last occupancy.Day) {
	t := d.Date()
	start := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	first = occupancy.Day(start.Unix() / 86400)
	last = occupancy.Day(start.AddDate(0, 1, -1).Unix() / 86400)
	return first, last
}

// Report is the figures of a range (docs/reports.md#figures).
type Report struct {
	Range
	Revenue   Revenue
	Occupancy []OccupancyDay
	Bookings  Bookings
	// Days is every day of the range with its own figures (the CSV and the workbook).
	Days []Day
}

// Revenue is the receipts issued in the range.
type Revenue struct {
	Totals
	ByService []ServiceRevenue
	ByChannel []ChannelRevenue
}

// Totals is a sum of receipts: Total = Base + VAT exactly.
type Totals struct {
	Total, Base, VAT money.Cents
	Receipts         int64
}

func (t *Totals) add(o Totals) {
	t.Total += o.Total
	t.Base += o.Base
	t.VAT += o.VAT
	t.Receipts += o.Receipts
}

// ServiceRevenue is the revenue of one main service.
type ServiceRevenue struct {
	ID   int64
	Name string
	Totals
}

// ChannelRevenue is the revenue of one sales channel and how many bookings made it.
type ChannelRevenue struct {
	Channel string
	Totals
}

// OccupancyDay is one day's places held against the capacity (0: unlimited).
type OccupancyDay struct {
	Day      occupancy.Day
	Capacity int
	Booked   int
}

// Bookings is what happened to the bookings of the range.
type Bookings struct {
	Created, Cancelled, NoShows int64
	// AverageStay and AverageLead are in hundredths of a day (rounded half away from zero).
	AverageStay, AverageLead int64
}

// Day is one day's figures.
type Day struct {
	Day occupancy.Day
	Totals
	Capacity, Booked            int
	Created, Cancelled, NoShows int64
}

// CatchUp brings the reports' summary up to the current hour, a week of history per
// transaction (store.RollupChunk), so that bookings are served between them; the
// service runs it at start and every hour (docs/reports.md#summary).
func (s *Service) CatchUp(ctx context.Context) error {
	_, err := s.store.Reports().Rollup(ctx, s.now(), 0)
	return err
}

// Report computes the figures of q's range.
func (s *Service) Report(ctx context.Context, q Query) (Report, error) {
	rg, err := s.Range(q)
	if err != nil {
		return Report{}, err
	}
	rep := Report{Range: rg, Days: make([]Day, rg.Days())}
	for i := range rep.Days {
		rep.Days[i].Day = rg.First + occupancy.Day(i)
	}
	w := rg.window(s.loc)
	// The hours closed since the last report join the summary first, a week of them at
	// most: a summary further behind (a history just migrated) is caught up by CatchUp,
	// a week per transaction, never inside a request (docs/reports.md#summary).
	if _, err := s.store.Reports().Rollup(ctx, s.now(), 1); err != nil {
		return Report{}, err
	}
	if err := s.revenue(ctx, w, &rep); err != nil {
		return Report{}, err
	}
	if err := s.bookings(ctx, w, &rep); err != nil {
		return Report{}, err
	}
	if err := s.occupancy(ctx, w, &rep); err != nil {
		return Report{}, err
	}
	return rep, nil
}

// day is the report's entry for local day d, nil outside the range.
func (rep *Report) day(d int64) *Day {
	i := d - int64(rep.First)
	if i < 0 || i >= int64(len(rep.Days)) {
		return nil
	}
	return &rep.Days[i]
}

func (s *Service) revenue(ctx context.Context, w store.ReportWindow, rep *Report) error {
	groups, err := s.store.Reports().Revenue(ctx, w)
	if err != nil {
		return err
	}
	svc := map[int64]int{}
	ch := map[string]int{}
	for _, g := range groups {
		t := Totals{Total: g.Total, Base: g.Base, VAT: g.VAT, Receipts: g.Receipts}
		rep.Revenue.add(t)
		if d := rep.day(g.Day); d != nil {
			d.Totals.add(t)
		}
		i, ok := svc[g.MainService]
		if !ok {
			i = len(rep.Revenue.ByService)
			svc[g.MainService] = i
			rep.Revenue.ByService = append(rep.Revenue.ByService, ServiceRevenue{ID: g.MainService, Name: g.ServiceName})
		}
		rep.Revenue.ByService[i].add(t)
		j, ok := ch[g.Channel]
		if !ok {
			j = len(rep.Revenue.ByChannel)
			ch[g.Channel] = j
			rep.Revenue.ByChannel = append(rep.Revenue.ByChannel, ChannelRevenue{Channel: g.Channel})
		}
		rep.Revenue.ByChannel[j].add(t)
	}
	slices.SortFunc(rep.Revenue.ByService, func(a, b ServiceRevenue) int { return cmp.Compare(a.ID, b.ID) })
	slices.SortFunc(rep.Revenue.ByChannel, func(a, b ChannelRevenue) int { return strings.Compare(a.Channel, b.Channel) })
	return nil
}

func (s *Service) bookings(ctx context.Context, w store.ReportWindow, rep *Report) error {
	days, err := s.store.Reports().Bookings(ctx, w, s.now().Add(-NoShowAfter))
	if err != nil {
		return err
	}
	var lead, leadN, stay, stayN int64
	for _, b := range days {
		rep.Bookings.Created += b.Created
		rep.Bookings.Cancelled += b.Cancelled
		rep.Bookings.NoShows += b.NoShows
		lead, leadN = lead+b.LeadSeconds, leadN+b.Created
		stay, stayN = stay+b.StaySeconds, stayN+b.Finished
		if d := rep.day(b.Day); d != nil {
			d.Created, d.Cancelled, d.NoShows = b.Created, b.Cancelled, b.NoShows
		}
	}
	rep.Bookings.AverageLead = hundredthsOfDay(lead, leadN)
	rep.Bookings.AverageStay = hundredthsOfDay(stay, stayN)
	return nil
}

// hundredthsOfDay is the mean of n durations summing sum seconds, in hundredths of a
// day, rounded half away from zero; 0 without any.
func hundredthsOfDay(sum, n int64) int64 {
	if n == 0 {
		return 0
	}
	num, den := sum*100, n*86400
	neg := num < 0
	if neg {
		num = -num
	}
	q := (2*num + den) / (2 * den)
	if neg {
		q = -q
	}
	return q
}

// occupancy counts each day as the capacity rules do, and adds on the days before
// today the finished stays, from check-in to check-out (docs/reports.md#occupancy).
func (s *Service) occupancy(ctx context.Context, w store.ReportWindow, rep *Report) error {
	a, err := s.avail(ctx, occupancy.Span{First: rep.First, Last: rep.Last})
	if err != nil {
		return err
	}
	for i, d := range a.Days {
		rep.Days[i].Capacity, rep.Days[i].Booked = a.Facility.Capacity, d.Booked
	}
	today := occupancy.DayOf(s.now(), s.loc)
	if rep.First < today {
		e, err := s.store.Reports().FinishedStays(ctx, w)
		if err != nil {
			return err
		}
		// A difference array: the stays carried in, plus those begun by each day, less
		// those ended before it.
		held := e.Carried
		for d := rep.First; d <= min(rep.Last, today-1); d++ {
			held += e.Starts[int64(d)]
			rep.Days[d-rep.First].Booked += int(held)
			held -= e.Ends[int64(d)]
		}
	}
	rep.Occupancy = make([]OccupancyDay, len(rep.Days))
	for i, d := range rep.Days {
		rep.Occupancy[i] = OccupancyDay{Day: d.Day, Capacity: d.Capacity, Booked: d.Booked}
	}
	return nil
}
