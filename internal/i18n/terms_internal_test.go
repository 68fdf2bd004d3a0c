package i18n

import (
	"testing"
	"time"
)

// A list of days is joined in the language's way; a status (Term) is said in the
// language, as written in the API's Spanish; an instant carries its seconds in the
// API's Spanish and the language's date-time form on a page.
func TestTermsDaysAndMoments(t *testing.T) {
	d := time.Date(2027, 3, 12, 0, 0, 0, 0, time.UTC)
	three := Days{d, d.AddDate(0, 0, 1), d.AddDate(0, 0, 2)}
	for _, c := range []struct {
		lang string
		days Days
		want string
	}{
		{"es", three, "12/03/2027, 13/03/2027 y 14/03/2027"},
		{"en", three, "12 Mar 2027, 13 Mar 2027 and 14 Mar 2027"},
		{"de", Days{d, d.AddDate(0, 0, 1)}, "12.03.2027 und 13.03.2027"},
		{"fr", Days{d}, "12/03/2027"},
	} {
		if got := c.days.in(c.lang); got != c.want {
			t.Errorf("%s: %q, want %q", c.lang, got, c.want)
		}
	}
	if got, want := Words("es", "err.booking.full_days", true, "Days", three), "No quedan plazas libres los días 12/03/2027, 13/03/2027 y 14/03/2027. Elija otras fechas."; got != want {
		t.Errorf("API Spanish: %q, want %q", got, want)
	}
	status := Term("js.status.EN CURSO")
	if got, want := Words("es", "err.booking.not_editable", true, "Status", status), "No se puede modificar una reserva EN CURSO."; got != want {
		t.Errorf("API Spanish status: %q, want %q", got, want)
	}
	if got, want := Words("en", "err.booking.not_editable", false, "Status", status), "This booking cannot be changed: it is IN PROGRESS."; got != want {
		t.Errorf("English status: %q, want %q", got, want)
	}
	at := time.Date(2026, 11, 21, 10, 0, 5, 0, time.UTC)
	if got, want := Words("es", "err.booking.exit_before_entry", true, "Exit", at, "Entry", at), "La fecha de salida (21/11/2026, 10:00:05) debe ser posterior a la fecha de entrada (21/11/2026, 10:00:05)."; got != want {
		t.Errorf("API Spanish moment: %q, want %q", got, want)
	}
	if got, want := Words("de", "err.booking.exit_before_entry", false, "Exit", at, "Entry", at), "Das Abfahrtsdatum (21.11.2026 10:00) muss nach dem Ankunftsdatum (21.11.2026 10:00) liegen."; got != want {
		t.Errorf("German moment: %q, want %q", got, want)
	}
}
