package ui

import (
	"net/http"
	"strconv"

	"parking/internal/localtime"
	"parking/internal/money"
	"parking/internal/reports"
	"parking/internal/web/httpx"
)

// reportPages are the business figures for staff (docs/reports.md): GET /admin/reports
// (a page with charts drawn on the server; JSON with Accept; ?format=csv and
// ?format=xlsx downloads) and the book of invoices issued, GET /admin/reports/invoices
// (JSON; ?format=csv). Staff only, like every /admin page.
type reportPages struct{ *base }

func (s reportPages) routes(mux *http.ServeMux) {
	admin := s.adminOnly(mux)
	admin("GET /admin/reports", s.adminReports)
	admin("GET /admin/reports/invoices", s.adminInvoices)
}

// hundredths writes a number kept in hundredths with two decimals: 350 → 3.50.
type hundredths int64

func (h hundredths) MarshalJSON() ([]byte, error) { return money.Cents(h).MarshalJSON() }

func (h hundredths) String() string { return money.Cents(h).String() }

// The report on the wire (docs/reports.md#figures).
type reportJSON struct {
	From      string            `json:"from"`
	To        string            `json:"to"`
	Revenue   revenueJSON       `json:"revenue"`
	Occupancy []occupancyJSON   `json:"occupancy"`
	Bookings  reportBookingJSON `json:"bookings"`
}

type revenueJSON struct {
	Total     money.Cents          `json:"total"`
	Base      money.Cents          `json:"base"`
	VAT       money.Cents          `json:"vat"`
	Receipts  int64                `json:"receipts"`
	ByDay     []revenueDayJSON     `json:"by_day"`
	ByService []revenueServiceJSON `json:"by_service"`
	ByChannel []revenueChannelJSON `json:"by_channel"`
}

type revenueDayJSON struct {
	Date  string      `json:"date"`
	Total money.Cents `json:"total"`
}

type revenueServiceJSON struct {
	ID    int64       `json:"id_main_service"`
	Name  string      `json:"name"`
	Total money.Cents `json:"total"`
}

type revenueChannelJSON struct {
	Channel  string      `json:"channel"`
	Total    money.Cents `json:"total"`
	Bookings int64       `json:"bookings"`
}

type occupancyJSON struct {
	Date     string `json:"date"`
	Capacity int    `json:"capacity"`
	Booked   int    `json:"booked"`
}

type reportBookingJSON struct {
	Created     int64      `json:"created"`
	Cancelled   int64      `json:"cancelled"`
	NoShows     int64      `json:"no_shows"`
	AverageStay hundredths `json:"average_stay_days"`
	AverageLead hundredths `json:"average_lead_days"`
}

func reportWire(rep reports.Report) reportJSON {
	out := reportJSON{From: rep.First.String(), To: rep.Last.String(),
		Revenue: revenueJSON{Total: rep.Revenue.Total, Base: rep.Revenue.Base, VAT: rep.Revenue.VAT, Receipts: rep.Revenue.Receipts,
			ByDay: make([]revenueDayJSON, len(rep.Days)), ByService: []revenueServiceJSON{}, ByChannel: []revenueChannelJSON{}},
		Occupancy: make([]occupancyJSON, len(rep.Occupancy)),
		Bookings: reportBookingJSON{Created: rep.Bookings.Created, Cancelled: rep.Bookings.Cancelled, NoShows: rep.Bookings.NoShows,
			AverageStay: hundredths(rep.Bookings.AverageStay), AverageLead: hundredths(rep.Bookings.AverageLead)}}
	for i, d := range rep.Days {
		out.Revenue.ByDay[i] = revenueDayJSON{Date: d.Day.String(), Total: d.Total}
	}
	for _, v := range rep.Revenue.ByService {
		out.Revenue.ByService = append(out.Revenue.ByService, revenueServiceJSON{ID: v.ID, Name: v.Name, Total: v.Total})
	}
	for _, v := range rep.Revenue.ByChannel {
		out.Revenue.ByChannel = append(out.Revenue.ByChannel, revenueChannelJSON{Channel: v.Channel, Total: v.Total, Bookings: v.Receipts})
	}
	for i, d := range rep.Occupancy {
		out.Occupancy[i] = occupancyJSON{Date: d.Day.String(), Capacity: d.Capacity, Booked: d.Booked}
	}
	return out
}

// adminReports is GET /admin/reports?from=&to=[&format=csv|xlsx].
func (s reportPages) adminReports(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	rq := reports.Query{From: q.Get("from"), To: q.Get("to")}
	format := q.Get("format")
	rep, err := s.reports.Report(r.Context(), rq)
	if httpx.WantsJSON(r) || (err != nil && (format == "csv" || format == "xlsx")) {
		if err != nil {
			s.WriteSuccessFalse(w, r, err)
			return
		}
		httpx.WriteJSON(w, http.StatusOK, reportWire(rep))
		return
	}
	switch {
	case err != nil:
		status := s.FailureStatus(r, err)
		s.render(w, r, status, "admin_reports.html", "title.reports", reportPageView{From: rq.From, To: rq.To, Error: s.failText(r, err)})
	case format == "csv":
		s.reportCSV(w, rep)
	case format == "xlsx":
		s.reportXLSX(w, r, rep)
	default:
		s.render(w, r, http.StatusOK, "admin_reports.html", "title.reports", s.reportPage(r, rep))
	}
}

// invoiceJSON is one receipt of the book on the wire (docs/reports.md#invoice-book).
type invoiceJSON struct {
	Number   string      `json:"number"`
	IssuedAt string      `json:"issued_at"`
	Kind     string      `json:"kind"`
	Replaces *string     `json:"replaces"`
	TaxID    *string     `json:"tax_id"`
	Name     *string     `json:"name"`
	Base     money.Cents `json:"base"`
	VATRate  float64     `json:"vat_rate"`
	VAT      money.Cents `json:"vat"`
	Total    money.Cents `json:"total"`
}

// adminInvoices is GET /admin/reports/invoices?from=&to=[&format=csv]: JSON
// {"from","to","invoices":[…],"totals":{"base","vat","total","receipts"}}, the totals
// those of the sales (a replacing invoice is not added twice), as the report's revenue.
func (s reportPages) adminInvoices(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	rq := reports.Query{From: q.Get("from"), To: q.Get("to")}
	if q.Get("format") == "csv" {
		s.invoicesCSV(w, r, rq)
		return
	}
	book, err := s.reports.Invoices(r.Context(), rq, nil)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	rows := make([]invoiceJSON, len(book.Invoices))
	for i, v := range book.Invoices {
		rows[i] = invoiceJSON{Number: v.Number, IssuedAt: localtime.JSON(v.IssuedAt, s.cfg.Location), Kind: v.Kind,
			TaxID: v.TaxID, Name: v.Name, Base: v.Base, VATRate: float64(v.VATRate) / 100, VAT: v.VAT, Total: v.Total}
		if v.Replaces != "" {
			rows[i].Replaces = &book.Invoices[i].Replaces
		}
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"from": book.First.String(), "to": book.Last.String(), "invoices": rows,
		"totals": map[string]any{"base": book.Sales.Base, "vat": book.Sales.VAT, "total": book.Sales.Total, "receipts": book.Sales.Receipts}})
}

// vatPercent writes basis points as a percentage with a decimal comma: 2100 → "21", 1050 → "10,5".
func vatPercent(bp int) string {
	s := strconv.FormatFloat(float64(bp)/100, 'f', -1, 64)
	for i := range s {
		if s[i] == '.' {
			return s[:i] + "," + s[i+1:]
		}
	}
	return s
}
