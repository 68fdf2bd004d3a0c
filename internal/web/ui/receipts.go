package ui

import (
	"encoding/base64"
	"encoding/json"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"

	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/money"
	"parking/internal/pricing"
	"parking/internal/receipt"
	"parking/internal/records"
	"parking/internal/reservation"
	"parking/internal/web/httpx"
)

// The receipt of a finalized reservation (docs/receipts.md#the-vat-arithmetic): GET
// /admin/reservations/details/{id}/receipt for staff, and GET
// /users/profile/reservation/{id}/receipt for the customer who owns it (spec,
// Authentication 6: the owner check, 403 otherwise); each as a page, as JSON
// (Accept: application/json) and as a PDF (…/receipt.pdf). What it prints is the
// receipt issued at finalize (internal/receipt), as stored: number, seller, VAT
// split, VeriFactu QR code. A reservation that is not FINALIZADA has no receipt:
// 409 with the reason.

// receiptPages are the receipts (docs/receipts.md): the page and the PDF for
// staff and for the owner, the invoice request and the VeriFactu records' export.
type receiptPages struct{ *base }

func (s receiptPages) routes(mux *http.ServeMux) {
	admin := s.adminOnly(mux)
	admin("GET /admin/reservations/details/{id}/receipt", s.adminReceipt)
	admin("GET /admin/reservations/details/{id}/receipt.pdf", s.adminReceiptPDF)
	admin("POST /admin/reservations/{id}/invoice", s.adminRequestInvoice)
	admin("GET /admin/verifactu/records", s.adminVerifactuRecords)
	mux.Handle("GET /users/profile/reservation/{id}/receipt", s.RequireUser(s.customerReceipt))
	mux.Handle("GET /users/profile/reservation/{id}/receipt.pdf", s.RequireUser(s.customerReceiptPDF))
}

// receiptView is the data of receipt.html.
type receiptView struct {
	// Lang is the booking's language: the receipt is Spanish with Lang beside
	// each text when it is another (docs/languages.md#receipts-and-the-entry-document).
	Lang         string
	ID           int64
	Reference    string // K7Q2-M9XD (docs/manage-booking.md#booking-reference)
	Doc          receiptDoc
	CustomerName string
	Phone        string
	Email        string
	Plate        string
	Vehicle      string
	Color        string
	TypeLabel    string
	Entry        string
	Exit         string
	Days         int64
	// The booked stay of a late car charged its real stay (docs/exit.md#overstay):
	// its booked exit and price, and the excess; "" when it was not.
	BookedExit  string
	BookedPrice string
	Excess      string
	Spot        string
	Paid        bool
	BackHref    string
	BackLabel   string
	PDFHref     string
	// SellerIncomplete: the receipt lacks the facility's name or NIF (the settings
	// were blank when it was issued); staff see a note, customers do not.
	SellerIncomplete bool
	Handovers        []detailHandover // the hand-over record (docs/photos.md)
}

// receiptDoc is the issued receipt as the page prints it.
type receiptDoc struct {
	Number, Heading, Issued, Replaces string // Heading: the kind and "nº", in the receipt's languages
	Full                              bool
	Seller                            receipt.Seller
	Recipient                         *receipt.Recipient
	Rate                              string
	Lines                             []receiptDocLine
	Base, VAT, Total                  string
	Payment                           string
	QRURL, Hash                       string
	QRImage                           template.URL // a data: URL of the PNG, made here
}

type receiptDocLine struct{ Description, Base, VAT, Total string }

// qrBase is the AEAT verification address the QR codes carry
// (PARKING_VERIFACTU_ENV; default the AEAT's test host, receipt.QRHostTest).
func (s receiptPages) qrBase() string {
	if s.cfg.VerifactuQRBase != "" {
		return s.cfg.VerifactuQRBase
	}
	return receipt.QRHostTest
}

func (s receiptPages) receiptDocOf(rc receipt.Receipt, lang string, wd words) (receiptDoc, error) {
	doc := receiptDoc{
		Number: rc.Number, Issued: s.shortTime(rc.IssuedAt), Replaces: rc.Replaces,
		Full: rc.Kind.IsFull(), Seller: rc.Seller, Recipient: rc.Recipient, Rate: receipt.RateText(rc.VATRate),
		Base: wd.money(rc.Totals.Base), VAT: wd.money(rc.Totals.VAT), Total: wd.money(rc.Totals.Total),
		Payment: rc.PaymentMethod, QRURL: receipt.QRURL(s.qrBase(), rc), Hash: rc.Record.Hash,
	}
	doc.Heading = i18n.BothOf(lang, func(l string) string {
		return i18n.T(l, "receipt.kindlabel_no", "KindLabel", i18n.T(l, rc.Kind.Key()))
	})
	for _, l := range rc.Lines {
		doc.Lines = append(doc.Lines, receiptDocLine{Description: l.Description, Base: wd.money(l.Base), VAT: wd.money(l.VAT), Total: wd.money(l.Total)})
	}
	png, err := receipt.QRPNG(s.qrBase(), rc, 192)
	if err != nil {
		return doc, err
	}
	doc.QRImage = template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(png))
	return doc, nil
}

// receiptOf builds the page of d's receipt rc.
func (s receiptPages) receiptOf(d records.Detail, rc receipt.Receipt, wd words) (receiptView, error) {
	res := d.Reservation
	ct := reservation.ContactOf(res, d.Customer) // as the invoice notification (docs/notifications.md#recipient)
	v := receiptView{
		Lang: res.Language, ID: res.ID, Reference: reservation.ShowReference(res.Reference), CustomerName: ct.FullName, Phone: deref(ct.Phone), Email: deref(ct.Email),
		Plate: d.Vehicle.LicensePlate, Vehicle: vehicleDescription(d.Vehicle.Brand, d.Vehicle.Model),
		TypeLabel: documentVehicleType(res.Language, d.Vehicle.Type), Entry: wd.dateTime(res.Entry), Exit: wd.optDateTime(res.Exit),
		Spot: deref(res.Spot), Paid: res.IsPaid,
	}
	if d.Vehicle.Color != reservation.DefaultColor {
		v.Color = d.Vehicle.Color
	}
	if res.Exit != nil {
		v.Days = pricing.ChargedDays(res.Entry, *res.Exit)
	}
	if res.BookedExit != nil && res.BookedPrice != nil {
		v.BookedExit, v.BookedPrice = wd.dateTime(*res.BookedExit), wd.money(*res.BookedPrice)
	}
	if x := res.Excess(); x > 0 {
		v.Excess = wd.money(x)
	}
	v.Handovers = s.handovers(d, wd, func(key string) string { return i18n.Both(res.Language, key) })
	var err error
	v.Doc, err = s.receiptDocOf(rc, res.Language, wd)
	return v, err
}

// documentVehicleType names a vehicle type as a document does: in Spanish and
// in the booking's language (an unknown code as it is).
func documentVehicleType(lang, typ string) string {
	if _, ok := vehicleTypeLabels[typ]; ok {
		return i18n.Both(lang, "vehicle."+typ)
	}
	return typ
}

// receiptFacts are the stay's details the PDF prints under the parties, labelled
// in the receipt's languages.
func (s receiptPages) receiptFacts(v receiptView) []receipt.Fact {
	fact := func(key, value string) receipt.Fact { return receipt.Fact{Label: i18n.Both(v.Lang, key), Value: value} }
	f := []receipt.Fact{
		fact("common.reserva", strconv.FormatInt(v.ID, 10)), fact("common.cliente", v.CustomerName),
		fact("common.matricula", v.Plate), fact("common.entrada", v.Entry),
	}
	if v.Exit != "" {
		f = append(f, fact("common.salida", v.Exit))
	}
	if v.BookedExit != "" {
		f = append(f, fact("receipt.salida_reservada", v.BookedExit), fact("common.precio_reservado", v.BookedPrice))
	}
	if v.Excess != "" {
		f = append(f, fact("common.exceso_de_estancia", v.Excess))
	}
	if v.Spot != "" {
		f = append(f, fact("common.plaza", v.Spot))
	}
	return f
}

// receiptJSON is the receipt of docs/receipts.md#routes: {"number","issued_at","seller":{"name",
// "tax_id","address"},"lines":[{"description","total","base","vat"}],"vat_rate",
// "base","vat","total","payment_method"}, plus the kind of invoice, the customer
// of a full invoice, the receipt it replaces, and its VeriFactu record.
type receiptJSON struct {
	Number        string            `json:"number"`
	IssuedAt      string            `json:"issued_at"`
	Seller        partyJSON         `json:"seller"`
	Lines         []receiptLineJSON `json:"lines"`
	VATRate       json.Number       `json:"vat_rate"`
	Base          money.Cents       `json:"base"`
	VAT           money.Cents       `json:"vat"`
	Total         money.Cents       `json:"total"`
	PaymentMethod *string           `json:"payment_method"`
	ReservationID int64             `json:"id_reservation"`
	Kind          string            `json:"kind"`
	Customer      *partyJSON        `json:"customer"`
	Replaces      *string           `json:"replaces"`
	PDFURL        string            `json:"pdf_url"`
	VeriFactu     verifactuJSON     `json:"verifactu"`
	// Excess is what the real stay of a late car added to its booked price
	// (docs/exit.md#overstay); 0 when none.
	Excess money.Cents `json:"excess"`
}

type partyJSON struct {
	Name    string `json:"name"`
	TaxID   string `json:"tax_id"`
	Address string `json:"address"`
}

type receiptLineJSON struct {
	Description string      `json:"description"`
	Total       money.Cents `json:"total"`
	Base        money.Cents `json:"base"`
	VAT         money.Cents `json:"vat"`
}

// verifactuJSON is a receipt's registro de alta (internal/receipt: Record).
type verifactuJSON struct {
	Seq         int64  `json:"seq"`
	IssuerID    string `json:"id_emisor_factura"`
	IssueDate   string `json:"fecha_expedicion_factura"`
	Kind        string `json:"tipo_factura"`
	VAT         string `json:"cuota_total"`
	Total       string `json:"importe_total"`
	GeneratedAt string `json:"fecha_hora_huso_gen_registro"`
	PrevHash    string `json:"huella_anterior"`
	Hash        string `json:"huella"`
	QRURL       string `json:"qr_url"`
}

func (s receiptPages) receiptAsJSON(rc receipt.Receipt, pdfURL string, excess money.Cents) receiptJSON {
	out := receiptJSON{
		Number: rc.Number, IssuedAt: rc.IssuedAt.In(s.cfg.Location).Format(time.RFC3339),
		Seller:  partyJSON{Name: rc.Seller.Name, TaxID: rc.Seller.TaxID, Address: rc.Seller.Address},
		Lines:   []receiptLineJSON{},
		VATRate: json.Number(receipt.RateText(rc.VATRate)),
		Base:    rc.Totals.Base, VAT: rc.Totals.VAT, Total: rc.Totals.Total,
		ReservationID: rc.ReservationID, Kind: string(rc.Kind), PDFURL: pdfURL,
		VeriFactu: s.verifactuOf(rc), Excess: excess,
	}
	if rc.PaymentMethod != "" {
		m := rc.PaymentMethod
		out.PaymentMethod = &m
	}
	if p := rc.Recipient; p != nil {
		out.Customer = &partyJSON{Name: p.Name, TaxID: p.TaxID, Address: p.Address}
	}
	if rc.Replaces != "" {
		r := rc.Replaces
		out.Replaces = &r
	}
	for _, l := range rc.Lines {
		out.Lines = append(out.Lines, receiptLineJSON{Description: l.Description, Total: l.Total, Base: l.Base, VAT: l.VAT})
	}
	return out
}

func (s receiptPages) verifactuOf(rc receipt.Receipt) verifactuJSON {
	return verifactuJSON{
		Seq: rc.Record.Seq, IssuerID: rc.Record.IssuerID, IssueDate: rc.Record.IssueDate, Kind: string(rc.Kind),
		VAT: rc.Totals.VAT.String(), Total: rc.Totals.Total.String(), GeneratedAt: rc.Record.GeneratedAt,
		PrevHash: rc.Record.PrevHash, Hash: rc.Record.Hash, QRURL: receipt.QRURL(s.qrBase(), rc),
	}
}

// receiptFormat is how a receipt route answers.
type receiptFormat int

const (
	receiptPage receiptFormat = iota
	receiptPDF
)

// serveReceipt answers with reservation d's receipt in the asked format; base is
// the route without its suffix (…/receipt), for the PDF link.
func (s receiptPages) serveReceipt(w http.ResponseWriter, r *http.Request, d records.Detail, format receiptFormat, base, back, backLabel string) {
	rc, err := s.booking.Receipt(r.Context(), d.Reservation.ID)
	if err != nil {
		s.Fail(w, r, err, !httpx.WantsJSON(r), s.errorPage(w, r, "error.receipt_unavailable", back, backLabel))
		return
	}
	if format == receiptPage && httpx.WantsJSON(r) {
		w.Header().Set("Cache-Control", "no-store")
		httpx.WriteJSON(w, http.StatusOK, s.receiptAsJSON(rc, pdfHref(base), d.Reservation.Excess()))
		return
	}
	v, err := s.receiptOf(d, rc, s.words(r))
	if err != nil {
		s.Fail(w, r, err, !httpx.WantsJSON(r), s.errorPage(w, r, "error.receipt_unavailable", back, backLabel))
		return
	}
	v.BackHref, v.BackLabel, v.PDFHref = back, backLabel, pdfHref(base)
	v.SellerIncomplete = strings.HasPrefix(base, "/admin/") && (rc.Seller.Name == "" || rc.Seller.TaxID == "")
	if format == receiptPDF {
		pdf, err := receipt.PDF(rc, v.Lang, s.cfg.Location, s.qrBase(), s.receiptFacts(v), v.Handovers)
		if err != nil {
			s.Fail(w, r, err, !httpx.WantsJSON(r), s.errorPage(w, r, "error.receipt_unavailable", back, backLabel))
			return
		}
		h := w.Header()
		h.Set("Content-Type", "application/pdf")
		h.Set("Content-Disposition", `inline; filename="`+rc.Number+`.pdf"`)
		h.Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(pdf)
		return
	}
	s.render(w, r, http.StatusOK, "receipt.html", s.T(r, rc.Kind.Key())+" "+rc.Number, v)
}

// pdfHref is the PDF's address beside the receipt page at base: ".pdf" added to
// the path, before a query (the manage page's receipt carries its token, ?t=…).
func pdfHref(base string) string {
	path, query, ok := strings.Cut(base, "?")
	if !ok {
		return base + ".pdf"
	}
	return path + ".pdf?" + query
}

// adminReceipt is GET /admin/reservations/details/{id}/receipt.
func (s receiptPages) adminReceipt(w http.ResponseWriter, r *http.Request) {
	s.adminReceiptAs(w, r, receiptPage)
}

// adminReceiptPDF is GET /admin/reservations/details/{id}/receipt.pdf.
func (s receiptPages) adminReceiptPDF(w http.ResponseWriter, r *http.Request) {
	s.adminReceiptAs(w, r, receiptPDF)
}

func (s receiptPages) adminReceiptAs(w http.ResponseWriter, r *http.Request, format receiptFormat) {
	s.withAdminDetail(w, r, "error.receipt_unavailable", func(d records.Detail, back string) {
		s.serveReceipt(w, r, d, format, back+"/receipt", back, "back.reservation")
	})
}

// withAdminDetail reads the detail of reservation {id} for a staff document route
// and hands it to serve with the detail page's address; an unknown or malformed id
// is answered here (JSON, or the error page titled heading).
func (s *base) withAdminDetail(w http.ResponseWriter, r *http.Request, heading string, serve func(d records.Detail, back string)) {
	id, err := reservationID(r)
	back := "/admin/history"
	if err == nil {
		back = "/admin/reservations/details/" + strconv.FormatInt(id, 10)
		var d records.Detail
		if d, err = s.records.Detail(r.Context(), id); err == nil {
			serve(d, back)
			return
		}
	}
	if httpx.WantsJSON(r) {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	s.renderError(w, r, err, heading, back, "back.reservation")
}

// customerReceipt is GET /users/profile/reservation/{id}/receipt: the owner's
// receipt. Another customer's reservation, or a missing one, is 403 (spec,
// Authentication 6), without saying which.
func (s receiptPages) customerReceipt(w http.ResponseWriter, r *http.Request) {
	s.customerReceiptAs(w, r, receiptPage)
}

// customerReceiptPDF is GET /users/profile/reservation/{id}/receipt.pdf.
func (s receiptPages) customerReceiptPDF(w http.ResponseWriter, r *http.Request) {
	s.customerReceiptAs(w, r, receiptPDF)
}

func (s receiptPages) customerReceiptAs(w http.ResponseWriter, r *http.Request, format receiptFormat) {
	d, err := s.ownReservation(r)
	if err != nil {
		if httpx.WantsJSON(r) {
			s.WriteSuccessFalse(w, r, err)
			return
		}
		s.renderError(w, r, err, "error.receipt_unavailable", "/users/profile", "back.account")
		return
	}
	s.serveReceipt(w, r, d, format, "/users/profile/reservation/"+strconv.FormatInt(d.Reservation.ID, 10)+"/receipt", "/users/profile", "back.account")
}

// ownReservation reads the detail of the signed-in customer's reservation {id}.
// Another customer's reservation, or a missing one, is 403 (docs/accounts.md
// 6), without saying which.
func (s *base) ownReservation(r *http.Request) (records.Detail, error) {
	u := httpx.GuardedUser(r)
	notYours := fault.Coded(fault.Forbidden, "msg.not_yours")
	id, ok := customerReservationID(r)
	if !ok {
		return records.Detail{}, notYours
	}
	// Only a reservation the account sees (docs/privacy.md#who-sees-a-booking).
	d, err := s.booking.CustomerDetail(r.Context(), u.ID, id)
	if k := fault.KindOf(err); k == fault.Forbidden || k == fault.NotFound {
		return records.Detail{}, notYours
	}
	return d, err
}
