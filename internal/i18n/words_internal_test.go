package i18n

import (
	"strings"
	"testing"
	"time"

	"parking/internal/money"
)

// Every field a message can name has its label in the catalogue.
func TestFieldLabelsExist(t *testing.T) {
	raw, err := Raw(Default)
	if err != nil {
		t.Fatal(err)
	}
	for name, key := range fieldLabels {
		if _, ok := raw[key]; !ok {
			t.Errorf("field %s: label key %q missing", name, key)
		}
	}
}

// A coded message names its field as the API does in the API's Spanish, as the
// form labels it elsewhere, and writes amounts and days in the language's form.
func TestWords(t *testing.T) {
	if got, want := Words("es", "err.input.required", true, "Field", FieldName("phone")), "El campo phone es obligatorio."; got != want {
		t.Errorf("API Spanish: %q, want %q", got, want)
	}
	if got, want := Words("es", "err.input.required", false, "Field", FieldName("phone")), "El campo «Teléfono» es obligatorio."; got != want {
		t.Errorf("page Spanish: %q, want %q", got, want)
	}
	if got, want := Words("en", "err.input.required", false, "Field", FieldName("license_plate")), "The field «Number plate» is required."; got != want {
		t.Errorf("page English: %q, want %q", got, want)
	}
	if got, want := Words("es", "err.input.one_of", true, "Field", FieldName("x"), "Values", Term("js.status.EN CURSO")), "El campo x debe ser uno de: EN CURSO."; got != want {
		t.Errorf("API state: %q, want %q", got, want)
	}
	if got, want := Words("de", "err.input.required", false, "Field", FieldName("xyz")), "Das Feld xyz ist ein Pflichtfeld."; got != want {

		t.Errorf("unknown field: %q, want %q", got, want)
	}
	day := Day(time.Date(2026, 5, 12, 0, 0, 0, 0, time.UTC))
	for _, c := range []struct {
		lang string
		arg  any
		want string
	}{
		{"en", money.Cents(1250), "€12.50"},
		{"fr", money.Cents(123450), "1\u00a0234,50 €"},
		{"de", day, "12.05.2026"},
		{"en", time.Date(2026, 5, 12, 9, 30, 0, 0, time.UTC), "12 May 2026, 09:30"},
		{"de", Term("js.status.EN CURSO"), "LAUFEND"},
	} {

		if got := Words(c.lang, "err.input.one_of", false, "Field", FieldName("x"), "Values", c.arg); !strings.Contains(got, c.want) {
			t.Errorf("%s %v: %q lacks %q", c.lang, c.arg, got, c.want)
		}
	}
}
