package ui_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// An English booking's receipt and entry document, page and PDF, are Spanish
// with English beside each text; a Spanish booking's are Spanish alone, whatever
// the page's language (docs/languages.md#receipts-and-the-entry-document).
func TestDocumentsInTheBookingsLanguage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		facility(t, e, "21")
		booking := func(n int, lang string) int64 {
			f := webtest.WalkInFields(n, clocktest.Shift(time.Date(2027, 3, 1, 10, 0, 0, 0, webtest.Madrid)), 3, fmt.Sprintf("L-%d", n))
			f["language"] = lang
			id := e.WalkIn(f)
			e.AddPhotos(id, 5)
			if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), map[string]any{"keys_handed_over": true}); st != 200 {
				t.Fatalf("start: %d %v", st, b)
			}
			return id
		}
		english, spanish := booking(1, "en"), booking(2, "es")
		// Spanish texts of both; the English ones only beside an English booking's.
		spanishTexts := map[string][]string{
			"entry page":   {"Justificante de entrada", `data-entry-fact="Matrícula">`, "Sí, el cliente entrega las llaves", "Ley 40/2002"},
			"entry PDF":    {"Justificante de entrada", "Matr\xedcula", "S\xed, el cliente entrega las llaves", "Salida prevista"},
			"receipt page": {"Factura simplificada nº", "Base imponible", "Forma de pago", "PAGADA"},
			"receipt PDF":  {"Factura simplificada", "Base imponible", "Forma de pago", "Matr\xedcula"},
		}
		englishTexts := map[string][]string{
			"entry page":   {"Justificante de entrada / Entry receipt", "<dt>Matrícula / Number plate</dt>", "Sí, el cliente entrega las llaves / Yes, the customer hands over the keys", "Spanish Law 40/2002"},
			"entry PDF":    {"Entry receipt", "Matr\xedcula / Number plate", "Yes, the customer hands over the keys", "Planned departure"},
			"receipt page": {"Factura simplificada nº / Simplified invoice no.", "Base imponible / Taxable base", "Total / Total", "PAGADA / PAID"},
			"receipt PDF":  {"Simplified invoice", "Taxable base", "Total / Total", "Matr\xedcula / Number plate", "Payment method"},
		}
		for _, c := range []struct {
			id      int64
			english bool
		}{{english, true}, {spanish, false}} {
			detail := fmt.Sprintf("/admin/reservations/details/%d", c.id)
			bodies := map[string]string{}
			for what, path := range map[string]string{"entry page": "/justificante", "entry PDF": "/justificante?format=pdf"} {
				res := e.Page(detail + path)
				webtest.WantStatus(t, res, 200)
				bodies[what] = res.Body
			}
			if st, b := e.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/finalize", c.id), map[string]any{"paymentMethod": "TARJETA"}); st != 200 {
				t.Fatalf("finalize: %d %v", st, b)
			}
			for what, path := range map[string]string{"receipt page": "/receipt", "receipt PDF": "/receipt.pdf"} {
				res := e.Page(detail + path)
				webtest.WantStatus(t, res, 200)
				bodies[what] = res.Body
			}
			for what, body := range bodies {
				for _, want := range spanishTexts[what] {
					if !strings.Contains(body, want) {
						t.Errorf("booking %d: the %s lacks %q", c.id, what, want)
					}
				}
				for _, want := range englishTexts[what] {
					if strings.Contains(body, want) != c.english {
						t.Errorf("booking %d (English %v): the %s has %q: %v", c.id, c.english, what, want, !c.english)
					}
				}
			}
		}
	})
}
