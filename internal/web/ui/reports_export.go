package ui

import (
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/xuri/excelize/v2"

	"parking/internal/money"
	"parking/internal/reports"
)

// The report's downloads (docs/reports.md#downloads). The CSV files follow the history
// export's dialect (records_history_csv.go): UTF-8 with a byte order mark, ";" between
// fields, decimal commas, CRLF, for the spreadsheet a clerk in Spain opens them with.
// The workbook keeps numbers as numbers (amounts in euros with two decimals).

// reportCSVColumns is the report CSV's header: one row per day of the range.
var reportCSVColumns = []string{"Fecha", "Recibos", "Base (€)", "IVA (€)", "Total (€)", "Capacidad", "Plazas ocupadas",
	"Reservas hechas", "Canceladas", "No presentados"}

// invoiceCSVColumns is the invoice book CSV's header.
var invoiceCSVColumns = []string{"Número", "Fecha de expedición", "Tipo", "Sustituye a", "NIF del cliente", "Nombre del cliente",
	"Base (€)", "Tipo de IVA (%)", "IVA (€)", "Total (€)"}

// startDownload sends the headers of an attachment named name.
func startDownload(w http.ResponseWriter, contentType, name string) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
}

// reportCSVWriter starts a CSV in the export dialect with its header row.
func reportCSVWriter(w io.Writer, header []string) *csv.Writer {
	_, _ = w.Write([]byte("\uFEFF"))
	cw := newCSVDialect(w)
	_ = cw.Write(header)
	return cw
}

func newCSVDialect(w io.Writer) *csv.Writer {
	cw := csv.NewWriter(w)
	cw.Comma = ';'
	cw.UseCRLF = true
	return cw
}

func reportName(rep reports.Range, ext string) string {
	return "informe-" + rep.First.String() + "-" + rep.Last.String() + "." + ext
}

// reportCSV is ?format=csv: one row per day of the range.
func (s reportPages) reportCSV(w http.ResponseWriter, rep reports.Report) {
	startDownload(w, "text/csv; charset=utf-8", reportName(rep.Range, "csv"))
	cw := reportCSVWriter(w, reportCSVColumns)
	for _, d := range rep.Days {
		_ = cw.Write([]string{d.Day.Date().Format("02/01/2006"), fmt.Sprint(d.Receipts), csvAmount(d.Base), csvAmount(d.VAT),
			csvAmount(d.Total), fmt.Sprint(d.Capacity), fmt.Sprint(d.Booked), fmt.Sprint(d.Created), fmt.Sprint(d.Cancelled),
			fmt.Sprint(d.NoShows)})
	}
	cw.Flush()
}

// invoicesCSV is the invoice book's ?format=csv, streamed row by row; a refused range
// is a 400 before anything is sent, a failure in the middle aborts the connection.
func (s reportPages) invoicesCSV(w http.ResponseWriter, r *http.Request, q reports.Query) {
	rg, err := s.reports.Range(q)
	if err != nil {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	startDownload(w, "text/csv; charset=utf-8", "libro-facturas-"+rg.First.String()+"-"+rg.Last.String()+".csv")
	cw := reportCSVWriter(w, invoiceCSVColumns)
	_, err = s.reports.Invoices(r.Context(), q, func(v reports.Invoice) error {
		var taxID, name string
		if v.TaxID != nil {
			taxID = *v.TaxID
		}
		if v.Name != nil {
			name = *v.Name
		}
		return cw.Write([]string{v.Number, s.shortTime(v.IssuedAt), v.Kind, v.Replaces, csvSafe(taxID), csvSafe(name),
			csvAmount(v.Base), vatPercent(v.VATRate), csvAmount(v.VAT), csvAmount(v.Total)})
	})
	cw.Flush()
	if err == nil {
		err = cw.Error()
	}
	if err != nil {
		s.log.ErrorContext(r.Context(), "invoice book export cut short", "err", err)
		panic(http.ErrAbortHandler)
	}
}

// reportXLSX is ?format=xlsx: a workbook with the summary, the days, the main services
// and the channels, each on its own sheet.
func (s reportPages) reportXLSX(w http.ResponseWriter, r *http.Request, rep reports.Report) {
	f := excelize.NewFile()
	defer f.Close()
	wd := s.words(r)
	// Amounts in euros as numbers (cents / 100: two decimals, shown as such).
	euro := func(c money.Cents) float64 { return float64(c) / 100 }
	summary := "Resumen"
	_ = f.SetSheetName("Sheet1", summary)
	rows := [][]any{
		{wd.t("reports.desde"), rep.First.String()}, {wd.t("reports.hasta"), rep.Last.String()},
		{wd.t("reports.total"), euro(rep.Revenue.Total)}, {wd.t("reports.base"), euro(rep.Revenue.Base)},
		{wd.t("reports.iva"), euro(rep.Revenue.VAT)}, {wd.t("reports.recibos"), rep.Revenue.Receipts},
		{wd.t("reports.reservas_hechas"), rep.Bookings.Created}, {wd.t("reports.canceladas"), rep.Bookings.Cancelled},
		{wd.t("reports.no_presentados"), rep.Bookings.NoShows},
		{wd.t("reports.estancia_media"), float64(rep.Bookings.AverageStay) / 100},
		{wd.t("reports.antelacion_media"), float64(rep.Bookings.AverageLead) / 100},
	}
	writeSheet(f, summary, nil, rows)
	days := make([][]any, len(rep.Days))
	for i, d := range rep.Days {
		days[i] = []any{d.Day.String(), d.Receipts, euro(d.Base), euro(d.VAT), euro(d.Total), d.Capacity, d.Booked, d.Created, d.Cancelled, d.NoShows}
	}
	writeSheet(f, "Días", reportCSVColumns, days)
	var svc [][]any
	for _, v := range rep.Revenue.ByService {
		svc = append(svc, []any{v.ID, v.Name, v.Receipts, euro(v.Base), euro(v.VAT), euro(v.Total)})
	}
	writeSheet(f, "Servicios", []string{"id_main_service", wd.t("reports.servicio"), wd.t("reports.recibos"), wd.t("reports.base"),
		wd.t("reports.iva"), wd.t("reports.total")}, svc)
	var ch [][]any
	for _, v := range rep.Revenue.ByChannel {
		ch = append(ch, []any{v.Channel, v.Receipts, euro(v.Base), euro(v.VAT), euro(v.Total)})
	}
	writeSheet(f, "Canales", []string{wd.t("reports.canal"), wd.t("reports.reservas"), wd.t("reports.base"), wd.t("reports.iva"),
		wd.t("reports.total")}, ch)
	startDownload(w, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", reportName(rep.Range, "xlsx"))
	if err := f.Write(w); err != nil {
		s.log.ErrorContext(r.Context(), "report workbook cut short", "err", err)
		panic(http.ErrAbortHandler)
	}
}

// writeSheet fills sheet (created when missing) with a header row (when given) and rows.
func writeSheet(f *excelize.File, sheet string, header []string, rows [][]any) {
	if idx, _ := f.GetSheetIndex(sheet); idx < 0 {
		_, _ = f.NewSheet(sheet)
	}
	r := 1
	if header != nil {
		h := make([]any, len(header))
		for i, v := range header {
			h[i] = v
		}
		_ = f.SetSheetRow(sheet, "A1", &h)
		r = 2
	}
	for _, row := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, r)
		_ = f.SetSheetRow(sheet, cell, &row)
		r++
	}
}
