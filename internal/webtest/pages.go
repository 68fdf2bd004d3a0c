package webtest

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"parking/internal/app"
	"parking/internal/booking"
)

// Patterns the page checks look for.
var (
	ScriptTag   = regexp.MustCompile(`<script[^>]*>`)
	InlineAttrs = regexp.MustCompile(`\s(style|on[a-z]+)=`)
	AssetRef    = regexp.MustCompile(`(?:href|src)="(/static/[^"]+)"`)
)

// CheckPage asserts what every page must be: HTML, Spanish, no inline script or
// style (the content security policy forbids them), assets by hashed name.
func CheckPage(t *testing.T, r Response) {
	t.Helper()
	CheckPageLang(t, r, "es")
}

// CheckPageLang is CheckPage for a page in lang (docs/languages.md).
func CheckPageLang(t *testing.T, r Response, lang string) {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
	if !strings.Contains(r.Body, `<html lang="`+lang+`">`) {
		t.Errorf("page is not marked %s", lang)
	}
	for _, tag := range ScriptTag.FindAllString(r.Body, -1) {
		if !strings.Contains(tag, ` src="/static/`) {
			t.Errorf("inline or foreign script: %s", tag)
		}
	}
	if m := InlineAttrs.FindString(r.Body); m != "" {
		t.Errorf("inline attribute the CSP would block: %q", m)
	}
	if !strings.Contains(r.Header.Get("Content-Security-Policy"), "default-src 'self'") {
		t.Error("no content security policy")
	}
	if r.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", r.Header.Get("Cache-Control"))
	}
}

func Count(t *testing.T, a *app.App, table string) int {
	t.Helper()
	var n int
	if err := a.Store.DB().QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func CustAt(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02T15:04", s, Madrid)
	if err != nil {
		panic(err)
	}
	return t
}

var CustNotYours = map[string]any{"success": false, "message": "La reserva no existe o no le pertenece."}

// Page fetches path as a browser does (Accept: text/html) with the environment's
// administrator session.
func (e *AdminEnv) Page(path string) Response {
	e.T.Helper()
	return Do(e.T, e.C, "GET", e.A.URL+path, nil, "Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8")
}

// BrowserPost posts an urlencoded form as a browser navigating does.
func (e *AdminEnv) BrowserPost(path string, form url.Values) Response {
	e.T.Helper()
	return PostForm(e.T, e.C, e.A.URL+path, form, "Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8")
}

// SeedStay books a walk-in reservation from entry to exit ("" = no exit date) and
// returns its id. Times are docs/dates.md#accepted-forms strings.
func SeedStay(t *testing.T, a *app.App, plate, entry, exit string) int64 {
	t.Helper()
	in := booking.NewBooking{
		FullName: "Cliente " + plate, Phone: "7" + fmt.Sprintf("%08d", len(plate)*1000+int(plate[len(plate)-1])), LicensePlate: plate,
		Brand: "Seat", Color: "Rojo", VehicleType: "COCHE", MainService: 2,
	}
	var err error
	if in.Entry, err = time.Parse(time.RFC3339, entry); err != nil {
		t.Fatal(err)
	}
	if exit != "" {
		x, err := time.Parse(time.RFC3339, exit)
		if err != nil {
			t.Fatal(err)
		}
		in.Exit = &x
	}
	c, err := a.Booking.Create(context.Background(), booking.WalkIn, in)
	if err != nil {
		t.Fatalf("book %s: %v", plate, err)
	}
	return c.Reservation.ID
}

// WantAll fails for each fragment the body lacks.
func WantAll(t *testing.T, what, body string, fragments ...string) {
	t.Helper()
	for _, f := range fragments {
		if !strings.Contains(body, f) {
			t.Errorf("%s lacks %s", what, f)
		}
	}
}
