// Package input holds every rule for what a person types into the service: the
// canonical forms of phones and licence plates, email addresses, names and free
// text, the length limits and the refusal of control characters (docs/input-rules.md#control-characters).
// Every flow (public booking, walk-in, administrator update, registration, profile,
// login, history search) reads its fields through these functions, and the booking
// page's script mirrors them (internal/web/ui/static/customer.js), so that the page and
// the server refuse the same values. The server stays authoritative.
//
// Refusals are coded fault.Invalid errors naming the field (docs/languages.md#messages-as-codes).
package input

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nyaruka/phonenumbers"

	"parking/internal/fault"
	"parking/internal/i18n"
)

// Length limits of docs/input-rules.md#length-limits, in characters.
const (
	MaxName             = 100
	MaxEmail            = 254
	MaxPhone            = 20 // as typed; the stored E.164 form is at most 16
	MinPlate            = 2
	MaxPlate            = 15
	MaxText             = 50 // brand, model, color, vehicle type
	MaxNotes            = 2000
	MaxSpot             = 20
	MaxPhotoDescription = 255
	MaxSearch           = 100
)

// DefaultRegion is the region phone numbers without a country code are read in
// when PARKING_PHONE_REGION is not set.
const DefaultRegion = "ES"

// Rules reads phone numbers in a region (PARKING_PHONE_REGION). The zero value
// reads them in DefaultRegion. Everything else in the package is region-free.
type Rules struct{ region string }

// New returns the rules of a region: an ISO 3166 code that libphonenumber knows
// ("ES", "PT", "FR"…), in any case.
func New(region string) (Rules, error) {
	region = strings.ToUpper(strings.TrimSpace(region))
	if !phonenumbers.GetSupportedRegions()[region] {
		return Rules{}, fmt.Errorf("%q is not a region with phone numbering rules (use a two-letter country code such as ES)", region)
	}
	return Rules{region: region}, nil
}

// Region is the region phone numbers are read in.
func (r Rules) Region() string {
	if r.region == "" {
		return DefaultRegion
	}
	return r.region
}

// Phone returns the stored form of a phone number: E.164 ("+34622333444"), read
// with libphonenumber's rules in the facility's region, so that "622 333 444",
// "622333444" and "+34 622 333 444" are one number. Digits, spaces, a + before them,
// dashes, dots, slashes and brackets are accepted as typed; letters, extensions and
// numbers that cannot exist are refused.
func (r Rules) Phone(field, raw string) (string, error) {
	p := strings.TrimSpace(raw)
	if err := Control(field, p); err != nil {
		return "", err
	}
	if p == "" {
		return "", required(field)
	}
	if err := Length(field, p, MaxPhone); err != nil {
		return "", err
	}
	if e164, ok := r.parsePhone(p); ok {
		return e164, nil
	}
	if example, ok := r.ForeignPhone(p); ok {
		return "", fault.Coded(fault.Invalid, "err.input.phone_country_code", "Value", p, "Field", i18n.FieldName(field), "Example", example)
	}
	return "", fault.Coded(fault.Invalid, "err.input.phone", "Value", p, "Field", i18n.FieldName(field))
}

// PhoneLookup is the stored form of a phone typed as a search, when the text is one.
func (r Rules) PhoneLookup(raw string) (string, bool) {
	p := strings.TrimSpace(raw)
	if p == "" || utf8.RuneCountInString(p) > MaxPhone || hasControl(p, false) {
		return "", false
	}
	return r.parsePhone(p)
}

// travellerRegions are the regions this facility's travellers' phones commonly
// come from, in the order a number valid in several of them is read in
// (docs/input-rules.md#phones). Not every region is tried: nearly any digits are a
// valid number somewhere, and the example must be the customer's own country's.
var travellerRegions = []string{"GB", "DE", "FR", "NL", "BE", "IE", "IT", "PT", "CH", "AT", "US"}

// ForeignPhone is, for a phone typed without its country code that is not valid
// in the facility's region but would be a mobile in a region travellers commonly
// come from, the number as it should be typed: with the country code, in international
// format ("07911 123456" in ES → "+44 7911 123456"). A phone typed with a country
// code, or valid at home, or valid nowhere nearby, is not foreign.
func (r Rules) ForeignPhone(raw string) (string, bool) {
	p := strings.TrimSpace(raw)
	if p == "" || utf8.RuneCountInString(p) > MaxPhone || hasControl(p, false) || strings.HasPrefix(p, "+") || strings.HasPrefix(p, "00") {
		return "", false
	}
	if _, ok := r.parsePhone(p); ok {
		return "", false
	}
	for _, region := range travellerRegions {
		if region == r.Region() {
			continue
		}
		if _, ok := (Rules{region: region}).parsePhone(p); !ok {
			continue
		}
		n, err := phonenumbers.Parse(p, region)
		if err != nil {
			continue
		}
		// A traveller gives a mobile: a landline reading would name the wrong
		// country ("06 12 34 56 78" is a French mobile and a German landline).
		if t := phonenumbers.GetNumberType(n); t != phonenumbers.MOBILE && t != phonenumbers.FIXED_LINE_OR_MOBILE {
			continue
		}
		return phonenumbers.Format(n, phonenumbers.INTERNATIONAL), true
	}
	return "", false
}

func (r Rules) parsePhone(p string) (string, bool) {
	digits, plus := 0, false
	for _, c := range p {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '+' && digits == 0 && !plus: // one +, before the digits ("(+34) …")
			plus = true
		case c == ' ', c == '-', c == '.', c == '/', c == '(', c == ')':
		default:
			return "", false
		}
	}
	if digits == 0 {
		return "", false
	}
	n, err := phonenumbers.Parse(p, r.Region())
	if err != nil || n.GetExtension() != "" || !phonenumbers.IsValidNumber(n) {
		return "", false
	}
	return phonenumbers.Format(n, phonenumbers.E164), true
}

// Blank reports whether a value was left empty or holds only spaces: a field not given.
func Blank(v string) bool { return strings.TrimSpace(v) == "" }

// Plate returns the stored form of a licence plate: spaces and dashes removed,
// upper-case, letters and digits only, 2 to 15 characters, so that "9988 LMN",
// "9988-LMN" and "9988lmn" are one vehicle.
func Plate(field, raw string) (string, error) {
	p := strings.TrimSpace(raw)
	if err := Control(field, p); err != nil {
		return "", err
	}
	if p == "" {
		return "", required(field)
	}
	canon := PlateForm(p)
	if err := Length(field, canon, MaxPlate); err != nil {
		return "", err
	}
	n := utf8.RuneCountInString(canon)
	ok := n >= MinPlate && n <= MaxPlate
	for _, c := range canon {
		ok = ok && plateRune(c)
	}
	if !ok {
		return "", fault.Coded(fault.Invalid, "err.input.plate", "Value", p, "Field", i18n.FieldName(field), "Min", MinPlate, "Max", MaxPlate)
	}
	return canon, nil
}

// plateRune reports whether c may stand in a canonical plate: the Latin capitals
// A–Z, digits, and the umlauts of German district codes (Ä, Ö, Ü). Nothing else,
// so that a look-alike from another script (Cyrillic А, Greek Ο) cannot make a
// second vehicle of one plate (docs/input-rules.md#plates).
func plateRune(c rune) bool {
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == 'Ä' || c == 'Ö' || c == 'Ü'
}

// PlateForm is the canonical spelling of a plate or of part of one (a search):
// trimmed, spaces and dashes removed, upper-case. It does not validate.
func PlateForm(raw string) string {
	return strings.ToUpper(strings.Map(func(c rune) rune {
		if c == ' ' || c == '-' {
			return -1
		}
		return c
	}, strings.TrimSpace(raw)))
}

// Email returns an email address as stored: trimmed, case kept (lookups ignore
// case). It must have the form name@domain.tld, without spaces, and at most 254
// characters. An empty value is refused: callers check optional fields first.
func Email(field, raw string) (string, error) {
	e := strings.TrimSpace(raw)
	if err := Control(field, e); err != nil {
		return "", err
	}
	if e == "" {
		return "", required(field)
	}
	if err := Length(field, e, MaxEmail); err != nil {
		return "", err
	}
	if !validEmail(e) {
		return "", fault.Coded(fault.Invalid, "err.input.email", "Value", e, "Field", i18n.FieldName(field))
	}
	return e, nil
}

// validEmail is a plain sanity check: something before one @, a domain with a dot
// and no empty label after it, no spaces or angle brackets. Real validation is a
// message arriving.
func validEmail(e string) bool {
	at := strings.IndexByte(e, '@')
	if at < 1 || at != strings.LastIndexByte(e, '@') || strings.ContainsAny(e, " <>\"") {
		return false
	}
	domain := e[at+1:]
	if !strings.Contains(domain, ".") {
		return false
	}
	for _, label := range strings.Split(domain, ".") {
		if label == "" {
			return false
		}
	}
	return true
}

// Name returns a person's name as stored: trimmed, required, at most 100 characters.
func Name(field, raw string) (string, error) {
	n, err := Text(field, raw, MaxName)
	if err == nil && n == "" {
		err = required(field)
	}
	return n, err
}

// Text returns a one-line text field as stored: trimmed, at most max characters, no
// control characters. Empty is allowed.
func Text(field, raw string, max int) (string, error) {
	t := strings.TrimSpace(raw)
	if err := Control(field, t); err != nil {
		return "", err
	}
	return t, Length(field, t, max)
}

// Notes returns a multi-line text field as stored: like Text, but tabs and line
// breaks are allowed.
func Notes(field, raw string, max int) (string, error) {
	t := strings.TrimSpace(raw)
	if hasControl(t, true) {
		return "", controlFault(field)
	}
	return t, Length(field, t, max)
}

// Spot returns a parking spot code as stored: trimmed, upper-case, at most 20
// characters; "" means no spot.
func Spot(field, raw string) (string, error) {
	s, err := Text(field, raw, MaxSpot)
	return strings.ToUpper(s), err
}

// Search returns the history's search text: trimmed, at most 100 characters, no
// control characters.
func Search(field, raw string) (string, error) { return Text(field, raw, MaxSearch) }

// Control refuses control characters (U+0000–U+001F and U+007F) and bidirectional
// controls (U+202A–U+202E, U+2066–U+2069, which can make a name read backwards on
// a staff screen) in a one-line field, and bytes that are not UTF-8.
func Control(field, v string) error {
	if hasControl(v, false) {
		return controlFault(field)
	}
	return nil
}

// Check refuses control characters in a one-line field and a value longer than max
// characters, naming the field; it is for values already trimmed.
func Check(field, v string, max int) error {
	if err := Control(field, v); err != nil {
		return err
	}
	return Length(field, v, max)
}

// Length refuses a field longer than max characters, naming it.
func Length(field, v string, max int) error {
	if utf8.RuneCountInString(v) > max {
		return fault.Coded(fault.Invalid, "err.input.too_long", "Field", i18n.FieldName(field), "Max", max)
	}
	return nil
}

// hasControl also reports bytes that are not UTF-8 (PostgreSQL refuses them).
func hasControl(v string, multiline bool) bool {
	if !utf8.ValidString(v) {
		return true
	}
	for _, c := range v {
		if Forbidden(c) && !(multiline && (c == '\t' || c == '\n' || c == '\r')) {
			return true
		}
	}
	return false
}

// Forbidden reports a character no text field keeps: a control character
// (U+0000–U+001F, U+007F) or a bidirectional control (U+202A–U+202E, U+2066–U+2069).
// Notes still allow tab and newline.
func Forbidden(c rune) bool {
	return c < 0x20 || c == 0x7f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)
}

func controlFault(field string) error {
	return fault.Coded(fault.Invalid, "err.input.control_chars", "Field", i18n.FieldName(field))
}

func required(field string) error {
	return fault.Coded(fault.Invalid, "err.input.required", "Field", i18n.FieldName(field))
}

// Whole returns an optional whole number field: nil when blank, else the number,
// which must lie between min and max (the hand-over's mileage and fuel level).
func Whole(field, raw string, min, max int) (*int, error) {
	t := strings.TrimSpace(raw)
	if t == "" {
		return nil, nil
	}
	n, err := strconv.Atoi(t)
	if err != nil || n < min || n > max {
		return nil, fault.Coded(fault.Invalid, "err.input.integer_range", "Field", i18n.FieldName(field), "Min", min, "Max", max)
	}
	return &n, nil
}
