package ui

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"parking/internal/i18n"
	"parking/internal/occupancy"
)

// The occupancy chart of the administrator dashboard and the parking board
// (docs/capacity.md#what-counts): today and the next 14 days as a small bar chart, drawn on the
// server as SVG (no third-party script), with the full days marked in colour, with a
// "Completo" mark and in the chart's accessible description.

// ChartDays is how many days the chart shows: today and the next 14.
const ChartDays = 15

type occupancyChartView struct {
	Title, Desc   string
	Width, Height int
	Bars          []occupancyBar
	LimitY        int // the sellable-places line; 0 when unlimited
	Limit         int
	Unlimited     bool
}

type occupancyBar struct {
	X, Y, W, H   int
	CX           int // centre, for the labels
	Weekday, Day string
	Count        string // the number on top of the bar
	Title        string // the tooltip and the bar's accessible name
	Class        string // bar-ok | bar-few | bar-full
	Full         bool
}

const (
	chartBarW   = 30
	chartGap    = 8
	chartPlotH  = 110 // bar area height
	chartTop    = 22  // room for the counts above the bars
	chartLabelH = 34  // weekday and day under the bars
)

// occupancyChart reads the next ChartDays days' occupancy and lays the chart out. A
// failure is logged and the page is shown without the chart: it is an aid, not the
// page's purpose.
func (s recordsPages) occupancyChart(ctx context.Context, r *http.Request) *occupancyChartView {
	today := occupancy.DayOf(s.now(), s.cfg.Location)
	a, err := s.booking.Availability(ctx, occupancy.Span{First: today, Last: today + ChartDays - 1})
	if err != nil {
		s.FailureStatus(r, err)
		return nil
	}
	wd := s.words(r)
	weekdays := strings.Split(wd.t("chart.weekdays"), "|")
	limit := a.Facility.SellableLimit()
	scale := max(limit, 1)
	for _, d := range a.Days {
		scale = max(scale, d.Booked)
	}
	v := &occupancyChartView{Title: wd.t("chart.title"), Limit: limit, Unlimited: limit == 0,
		Width: ChartDays*(chartBarW+chartGap) + chartGap, Height: chartTop + chartPlotH + chartLabelH}
	var full []occupancy.Day
	for i, d := range a.Days {
		h := d.Booked * chartPlotH / scale
		if d.Booked > 0 && h < 2 {
			h = 2 // a day with one stay still shows a sliver
		}
		x := chartGap + i*(chartBarW+chartGap)
		date := d.Day.Date()
		b := occupancyBar{X: x, W: chartBarW, Y: chartTop + chartPlotH - h, H: h, CX: x + chartBarW/2,
			Weekday: weekdays[date.Weekday()%7], Day: date.Format("02/01"), Count: fmt.Sprint(d.Booked), Class: "bar-ok"}
		switch d.Status {
		case occupancy.Full:
			b.Class, b.Full = "bar-full", true
			full = append(full, d.Day)
		case occupancy.Few:
			b.Class = "bar-few"
		}
		b.Title = wd.t("chart.bar", "Weekday", b.Weekday, "Day", i18n.Date(wd.lang, date), "Count", d.Booked)
		if limit > 0 {
			b.Title += wd.t("chart.bar_of", "Limit", limit)
		}
		if b.Full {
			b.Title += wd.t("chart.bar_full")
		}
		v.Bars = append(v.Bars, b)
	}
	if limit > 0 {
		v.LimitY = chartTop + chartPlotH - limit*chartPlotH/scale
	}
	switch {
	case limit == 0:
		v.Desc = wd.t("chart.unlimited")
	case len(full) == 0:
		v.Desc = wd.t("chart.none_full", "Limit", limit)
	case len(full) == 1:
		v.Desc = wd.t("chart.one_full", "Days", wd.days(full), "Limit", limit)
	default:
		v.Desc = wd.t("chart.many_full", "Days", wd.days(full), "Limit", limit)
	}
	return v
}
