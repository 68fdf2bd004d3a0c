package httpx

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"parking/internal/fault"
	"parking/internal/i18n"
)

// Fail and FailBack: a JSON client gets {success:false, message} with the fault's
// status (422 for Unprocessable); a browser gets the page, or is sent back with
// ?error=…, except for an unknown record (404 as JSON: no page to go back to).
func TestFail(t *testing.T) {
	k := NewKit(slog.New(slog.NewTextHandler(io.Discard, nil)), nil, "")
	r := httptest.NewRequest(http.MethodPost, "/x", nil)
	refused := fault.Invalidf("Falta el campo.")

	w := httptest.NewRecorder()
	k.Fail(w, r, &fault.Error{Kind: fault.Unprocessable, Message: "Otra vez."}, false, nil)
	if w.Code != http.StatusUnprocessableEntity || !strings.Contains(w.Body.String(), `"message":"Otra vez."`) {
		t.Fatalf("JSON: %d %s", w.Code, w.Body)
	}

	w = httptest.NewRecorder()
	var gotStatus int
	var gotMsg string
	k.Fail(w, r, refused, true, func(status int, msg string) { gotStatus, gotMsg = status, msg })
	if gotStatus != http.StatusBadRequest || gotMsg != "Falta el campo." || w.Body.Len() != 0 {
		t.Fatalf("page: %d %q %s", gotStatus, gotMsg, w.Body)
	}

	w = httptest.NewRecorder()
	k.FailBack(w, r, refused, true, "/a/1", "#fotos")
	if loc := w.Header().Get("Location"); w.Code != http.StatusSeeOther || loc != "/a/1?error=Falta+el+campo.#fotos" {
		t.Fatalf("back: %d %q", w.Code, loc)
	}

	w = httptest.NewRecorder()
	k.FailBack(w, r, fault.New(fault.NotFound, "No existe."), true, "/a/1", "")
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), `"success":false`) {
		t.Fatalf("unknown record: %d %s", w.Code, w.Body)
	}
}

// A coded refusal is said in the reader's language with the field as its form
// labels it, on the pages' routes and the API's alike; a client naming no language
// gets the spec's Spanish, which names the field as the API does (docs/languages.md#messages-as-codes).
func TestMessageInTheReadersLanguage(t *testing.T) {
	k := NewKit(slog.New(slog.NewTextHandler(io.Discard, nil)), nil, "")
	refused := fault.Coded(fault.Invalid, "err.input.required", "Field", i18n.FieldName("phone"))
	for _, c := range []struct {
		name, path, accept, cookie, want string
	}{
		{"no language named", "/admin/x", "", "", "El campo phone es obligatorio."},
		{"the API, no language", "/api/reservations/public-new", "", "", "El campo phone es obligatorio."},
		{"the API in English", "/api/reservations/public-new", "en", "", "The field «Phone» is required."},
		{"Accept-Language", "/booking/x", "en-GB,en;q=0.9", "", "The field «Phone» is required."},
		{"cookie over header", "/booking/x", "en", "de", "Das Feld «Telefon» ist ein Pflichtfeld."},
		{"Spanish asked", "/booking/x", "es-ES", "", "El campo «Teléfono» es obligatorio."},
		{"?lang=", "/booking/x?lang=fr", "", "", "Le champ «Téléphone» est obligatoire."},
	} {
		r := httptest.NewRequest(http.MethodPost, c.path, nil)
		if c.accept != "" {
			r.Header.Set("Accept-Language", c.accept)
		}
		if c.cookie != "" {
			r.AddCookie(&http.Cookie{Name: LangCookie, Value: c.cookie})
		}
		w := httptest.NewRecorder()
		k.Languages(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { k.WriteSuccessFalse(w, r, refused) })).ServeHTTP(w, r)
		// The field is named as the request names it, in every language, for the
		// page's script; a client naming no language gets the spec's body as it is.
		fields := strings.Contains(w.Body.String(), `"fields":["phone"]`)
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `"message":"`+c.want+`"`) || fields != (c.accept != "" || c.cookie != "" || strings.Contains(c.path, "lang=")) {
			t.Errorf("%s: %d %s, want %q", c.name, w.Code, w.Body, c.want)
		}
	}
}
