package ui

import (
	"compress/gzip"
	"encoding/csv"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"parking/internal/money"
	"parking/internal/reservation"
	"parking/internal/web/httpx"
)

// GET /admin/history.csv?status=&search=&dateFrom=&dateTo=&bookedFrom=&bookedTo= : the CSV export of the
// history page's filtered result — every matching reservation, not one page —
// streamed row by row from one query (store.HistoryEach), newest first.
//
// The file is made for the spreadsheet a clerk in Spain opens it with:
//   - UTF-8 with a byte order mark, without which Excel reads it as Windows-1252 and
//     garbles the accents (Cancelación, Peñalver);
//   - fields separated by ";" and amounts with a decimal comma ("51,00"), the list
//     separator and number format of a Spanish-locale Excel, which would put a
//     comma-separated file in one column; rows end in CRLF (RFC 4180); fields are
//     quoted where they contain ";", quotes or line breaks;
//   - dates as "21/11/2026 10:00" in the facility's zone;
//   - safe against CSV (formula) injection: a text cell that begins with =, +, -,
//     @, a tab or a carriage return is prefixed with an apostrophe, so that a name
//     or a note typed as "=HYPERLINK(…)" stays text (OWASP's advice).
//
// Refused filters are a 400 with the message before anything is sent; a failure
// in the middle of the stream aborts the connection, so a download is never cut
// short silently.

// csvColumns is the export's header row. A new column goes at the end, so that
// the positions a spreadsheet or a script relies on stay (docs/admin-pages.md).
var csvColumns = []string{
	"Reserva", "Fecha de reserva", "Entrada", "Salida", "Estado", "Cliente", "Teléfono", "Correo",
	"Matrícula", "Marca", "Modelo", "Color", "Tipo de vehículo", "Servicio", "Plaza", "Total (€)",
	"Pagada", "Método de pago", "Notas", "Idioma", "Canal",
}

// csvFlushEvery is how many rows are written between flushes to the client.
const csvFlushEvery = 256

// csvSafe defuses a text cell that a spreadsheet would read as a formula.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// csvAmount writes cents with a decimal comma: 5100 → "51,00".
func csvAmount(c money.Cents) string { return strings.Replace(c.String(), ".", ",", 1) }

// adminHistoryCSV is GET /admin/history.csv. The stream is gzip-compressed (at
// the fastest level) for clients that accept it: a CSV shrinks about seven times.
func (s recordsPages) adminHistoryCSV(w http.ResponseWriter, r *http.Request) {
	hq := historyQuery(r)
	started := false
	rc := http.NewResponseController(w)
	var cw *csv.Writer
	var zw *gzip.Writer
	begin := func() {
		var out io.Writer = w
		if httpx.AcceptsGzip(r) {
			w.Header().Set("Content-Encoding", "gzip")
			zw, _ = gzip.NewWriterLevel(w, gzip.BestSpeed)
			out = zw
		}
		w.Header().Add("Vary", "Accept-Encoding")
		startCSV(w, out, rc, s.todayISO())
		cw = newCSVWriter(out)
		started = true
	}
	flush := func() error {
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		if zw != nil {
			if err := zw.Flush(); err != nil {
				return err
			}
		}
		return rc.Flush()
	}
	n := 0
	err := s.records.HistoryEach(r.Context(), hq, func(row reservation.HistoryRow) error {
		if !started {
			begin()
		}
		if err := cw.Write(s.csvRecord(row)); err != nil {
			return err
		}
		if n++; n%csvFlushEvery == 0 {
			return flush()
		}
		return nil
	})
	if err == nil {
		if !started { // nothing matched: the header alone
			begin()
		}
		cw.Flush()
		err = cw.Error()
		if err == nil && zw != nil {
			err = zw.Close()
		}
	}
	if err == nil {
		return
	}
	if !started {
		status := s.FailureStatus(r, err)
		http.Error(w, s.failText(r, err), status)
		return
	}
	// Headers are gone: end the connection so the download shows as failed.
	if !errors.Is(err, r.Context().Err()) {
		s.log.ErrorContext(r.Context(), "history export cut short", "rows", n, "err", err)
	}
	panic(http.ErrAbortHandler)
}

// startCSV sends the export's headers, then the byte order mark to out (w, or its
// compressor).
func startCSV(w http.ResponseWriter, out io.Writer, rc *http.ResponseController, day string) {
	// No write deadline: a large export takes as long as it takes.
	_ = rc.SetWriteDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="historial-`+day+`.csv"`)
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = out.Write([]byte("\uFEFF"))
}

// newCSVWriter writes the header row with the export's dialect.
func newCSVWriter(w io.Writer) *csv.Writer {
	cw := csv.NewWriter(w)
	cw.Comma = ';'
	cw.UseCRLF = true
	_ = cw.Write(csvColumns)
	return cw
}

// csvRecord is one reservation as a row of the export.
func (s recordsPages) csvRecord(row reservation.HistoryRow) []string {
	res := row.Reservation
	paid := "No"
	if res.IsPaid {
		paid = "Sí"
	}
	method := ""
	if res.PaymentMethod != nil {
		method = string(*res.PaymentMethod)
	}
	return []string{
		strconv.FormatInt(res.ID, 10), s.shortTime(res.ReservationDate), s.shortTime(res.Entry), s.optTime(res.Exit),
		string(res.Status), csvSafe(row.CustomerName), csvSafe(deref(row.Phone)), csvSafe(deref(row.Email)),
		csvSafe(row.LicensePlate), csvSafe(row.Brand), csvSafe(row.Model), csvSafe(row.Color), csvSafe(row.VehicleType),
		csvSafe(row.MainServiceName), csvSafe(deref(res.Spot)), csvAmount(res.TotalPrice), paid, method, csvSafe(deref(res.Notes)),
		res.Language, // the booking's language code (docs/languages.md#the-bookings-language)
		res.Channel,  // web, counter or partner:<id> (docs/partners.md#channels)
	}
}
