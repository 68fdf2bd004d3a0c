package ui

import (
	"fmt"
	"net/http"
	"net/url"

	"parking/internal/i18n"
	"parking/internal/money"
	"parking/internal/reports"
	"parking/internal/reservation"
)

// The report page (templates/admin_reports.html, docs/reports.md#page): the totals as
// figures, then four bar charts drawn on the server as SVG (revenue by day, occupancy by
// day against the capacity, revenue by main service and by channel). An SVG scales to
// the screen's width (its viewBox), so a phone shows the whole chart; each chart is
// followed by its numbers as a table, which screen readers read.

// reportPageView is the data of admin_reports.html.
type reportPageView struct {
	From, To, Error string
	Figures         []reportFigure
	Charts          []reportChart
	CSV, XLSX       string
	Invoices        string
}

type reportFigure struct{ Label, Value, Name string }

// reportChart is one chart and its table.
type reportChart struct {
	ID, Title, Desc string
	Width, Height   int
	Bars            []reportBar
	Ticks           []reportTick
	LimitY          int // the capacity line; 0 without one
	Columns         []string
	Rows            [][]string
}

type reportBar struct {
	X, Y, W, H int
	Title      string
}

type reportTick struct {
	X     int
	Label string
}

const (
	rcWidth  = 480 // the viewBox: an SVG scales to the page's width
	rcPlotH  = 160
	rcTop    = 10
	rcLabelH = 22
	rcPad    = 4
)

// barChart lays out values (one bar each, labelled labels[i]) with at most eight labels
// under the axis; limit > 0 draws a line at that value.
func barChart(id, title, desc string, labels []string, values []int64, tips []string, limit int64) reportChart {
	c := reportChart{ID: id, Title: title, Desc: desc, Width: rcWidth, Height: rcTop + rcPlotH + rcLabelH}
	n := len(values)
	if n == 0 {
		return c
	}
	scale := max(limit, 1)
	for _, v := range values {
		scale = max(scale, v)
	}
	slot := (rcWidth - 2*rcPad) * 1000 / n // thousandths of a unit, so that 731 bars fit
	every := max(1, (n+7)/8)
	for i, v := range values {
		x := rcPad + i*slot/1000
		w := max(1, slot*8/10/1000)
		h := int(v * rcPlotH / scale)
		if v > 0 && h < 2 {
			h = 2
		}
		c.Bars = append(c.Bars, reportBar{X: x, Y: rcTop + rcPlotH - h, W: w, H: h, Title: tips[i]})
		if i%every == 0 {
			c.Ticks = append(c.Ticks, reportTick{X: x + w/2, Label: labels[i]})
		}
	}
	if limit > 0 {
		c.LimitY = rcTop + rcPlotH - int(limit*rcPlotH/scale)
	}
	return c
}

// reportPage assembles the page of rep in the request's language.
func (s reportPages) reportPage(r *http.Request, rep reports.Report) reportPageView {
	wd := s.words(r)
	eur := func(c money.Cents) string { return i18n.Money(wd.lang, c) }
	q := url.Values{"from": {rep.First.String()}, "to": {rep.Last.String()}}
	v := reportPageView{From: rep.First.String(), To: rep.Last.String(),
		CSV: "/admin/reports?" + q.Encode() + "&format=csv", XLSX: "/admin/reports?" + q.Encode() + "&format=xlsx",
		Invoices: "/admin/reports/invoices?" + q.Encode() + "&format=csv"}
	b := rep.Bookings
	v.Figures = []reportFigure{
		{wd.t("reports.total"), eur(rep.Revenue.Total), "total"}, {wd.t("reports.base"), eur(rep.Revenue.Base), "base"},
		{wd.t("reports.iva"), eur(rep.Revenue.VAT), "vat"}, {wd.t("reports.recibos"), fmt.Sprint(rep.Revenue.Receipts), "receipts"},
		{wd.t("reports.reservas_hechas"), fmt.Sprint(b.Created), "created"}, {wd.t("reports.canceladas"), fmt.Sprint(b.Cancelled), "cancelled"},
		{wd.t("reports.no_presentados"), fmt.Sprint(b.NoShows), "no_shows"},
		{wd.t("reports.estancia_media"), wd.t("reports.dias", "Days", i18n.Decimal(wd.lang, hundredths(b.AverageStay).String())), "average_stay_days"},
		{wd.t("reports.antelacion_media"), wd.t("reports.dias", "Days", i18n.Decimal(wd.lang, hundredths(b.AverageLead).String())), "average_lead_days"},
	}
	n := len(rep.Days)
	labels, rev, occ := make([]string, n), make([]int64, n), make([]int64, n)
	revTips, occTips := make([]string, n), make([]string, n)
	var revRows, occRows [][]string
	for i, d := range rep.Days {
		date := i18n.Date(wd.lang, d.Day.Date())
		labels[i] = d.Day.Date().Format("02/01")
		rev[i], occ[i] = int64(d.Total), int64(d.Booked)
		revTips[i] = date + ": " + eur(d.Total)
		occTips[i] = date + ": " + fmt.Sprint(d.Booked)
		capacity := wd.t("reports.sin_limite")
		if d.Capacity > 0 {
			capacity = fmt.Sprint(d.Capacity)
			occTips[i] += " / " + capacity
		}
		revRows = append(revRows, []string{date, fmt.Sprint(d.Receipts), eur(d.Base), eur(d.VAT), eur(d.Total)})
		occRows = append(occRows, []string{date, fmt.Sprint(d.Booked), capacity})
	}
	capacity := int64(0)
	if n > 0 {
		capacity = int64(rep.Days[n-1].Capacity)
	}
	revChart := barChart("revenue-day", wd.t("reports.ingresos_por_dia"), wd.t("reports.ingresos_desc", "Total", eur(rep.Revenue.Total), "Days", n),
		labels, rev, revTips, 0)
	revChart.Columns, revChart.Rows = []string{wd.t("reports.fecha"), wd.t("reports.recibos"), wd.t("reports.base"), wd.t("reports.iva"), wd.t("reports.total")}, revRows
	occChart := barChart("occupancy-day", wd.t("reports.ocupacion_por_dia"), wd.t("reports.ocupacion_desc", "Days", n), labels, occ, occTips, capacity)
	occChart.Columns, occChart.Rows = []string{wd.t("reports.fecha"), wd.t("reports.plazas_ocupadas"), wd.t("reports.capacidad")}, occRows
	var sl, cl []string
	var sv, cv []int64
	var sRows, cRows [][]string
	for _, x := range rep.Revenue.ByService {
		sl, sv = append(sl, x.Name), append(sv, int64(x.Total))
		sRows = append(sRows, []string{x.Name, fmt.Sprint(x.Receipts), eur(x.Total)})
	}
	for _, x := range rep.Revenue.ByChannel {
		name := channelLabel(wd, x.Channel)
		cl, cv = append(cl, name), append(cv, int64(x.Total))
		cRows = append(cRows, []string{name, fmt.Sprint(x.Receipts), eur(x.Total)})
	}
	svcChart := barChart("revenue-service", wd.t("reports.ingresos_por_servicio"), wd.t("reports.reparto_desc"), sl, sv, tipsOf(sl, sv, eur), 0)
	svcChart.Columns, svcChart.Rows = []string{wd.t("reports.servicio"), wd.t("reports.recibos"), wd.t("reports.total")}, sRows
	chChart := barChart("revenue-channel", wd.t("reports.ingresos_por_canal"), wd.t("reports.reparto_desc"), cl, cv, tipsOf(cl, cv, eur), 0)
	chChart.Columns, chChart.Rows = []string{wd.t("reports.canal"), wd.t("reports.reservas"), wd.t("reports.total")}, cRows
	v.Charts = []reportChart{revChart, occChart, svcChart, chChart}
	return v
}

func tipsOf(labels []string, values []int64, eur func(money.Cents) string) []string {
	out := make([]string, len(labels))
	for i := range labels {
		out[i] = labels[i] + ": " + eur(money.Cents(values[i]))
	}
	return out
}

// channelLabel names a sales channel for people.
func channelLabel(wd words, ch string) string {
	switch ch {
	case "web":
		return wd.t("reports.canal_web")
	case "counter":
		return wd.t("reports.canal_counter")
	}
	if id, ok := reservation.ChannelPartner(ch); ok {
		return wd.t("reports.canal_partner", "ID", id)
	}
	return ch
}
