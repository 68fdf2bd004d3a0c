package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/money"
)

// Input is a request body read by ReadInput, in any encoding the
// routes accept: JSON (scripts, tests) or a form (the pages: urlencoded or
// multipart). It keeps whether each field was sent, because an update changes
// only what was sent; JSON null counts as sent and empty (it clears a value).
type Input struct {
	values map[string][]string
	json   bool            // the body was JSON
	kinds  map[string]byte // JSON only: each member's first byte ('"', 'n' for null, 't'/'f', a digit…)
	blank  bool            // no body at all
}

// ErrEmptyBody refuses a request without a body where one is required.
var ErrEmptyBody = fault.Coded(fault.Invalid, "err.httpx.empty_body")

// RequireBody refuses an input read from an empty body (ErrEmptyBody): for routes
// whose request is pointless without one, unlike PATCH …/start.
func (in Input) RequireBody() error {
	if in.blank {
		return ErrEmptyBody
	}
	return nil
}

// ReadInput decodes the request body by its Content-Type; a body that starts
// with "{" and is not declared a form is read as JSON (curl -d sends JSON as a form).
// An empty body is an empty input (PATCH …/start needs none).
func ReadInput(w http.ResponseWriter, r *http.Request) (Input, error) {
	in := Input{values: map[string][]string{}}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt == "multipart/form-data" {
		r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
		if err := r.ParseMultipartForm(MaxBody); err != nil {
			return in, formError(err)
		}
		for k, v := range r.MultipartForm.Value {
			in.values[strings.TrimSuffix(k, "[]")] = append(in.values[strings.TrimSuffix(k, "[]")], v...)
		}
		return in, nil
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		return in, formError(err)
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		in.json, in.blank = mt == "application/json", true
		return in, nil
	}
	if IsJSONBody(r) || (mt != "application/x-www-form-urlencoded" && trimmed[0] == '{') {
		in.json = true
		r.Body = io.NopCloser(bytes.NewReader(body))
		var raw map[string]json.RawMessage
		if err := DecodeJSON(w, r, &raw); err != nil {
			return in, err
		}
		in.kinds = make(map[string]byte, len(raw))
		for k, v := range raw {
			if t := bytes.TrimSpace(v); len(t) > 0 {
				in.kinds[k] = t[0]
			}
			vals, err := jsonValues(k, v)
			if err != nil {
				return in, err
			}
			in.values[k] = vals
		}
		return in, nil
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return in, fault.Coded(fault.Invalid, "err.httpx.form_unreadable")
	}
	for k, v := range form {
		in.values[strings.TrimSuffix(k, "[]")] = append(in.values[strings.TrimSuffix(k, "[]")], v...)
	}
	return in, nil
}

func formError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return errBodyTooLarge
	}
	return errBodyUnreadable
}

// jsonValues flattens one JSON member into form-like text values: a string, number
// or boolean gives one value, an array one per element, null an empty value.
func jsonValues(field string, raw json.RawMessage) ([]string, error) {
	raw = bytes.TrimSpace(raw)
	scalar := func(b json.RawMessage) (string, error) {
		switch {
		case len(b) == 0 || string(b) == "null":
			return "", nil
		case b[0] == '"':
			var s string
			err := json.Unmarshal(b, &s)
			return s, err
		case b[0] == '{' || b[0] == '[':
			return "", fault.Coded(fault.Invalid, "err.httpx.bad_type", "Field", i18n.FieldName(field))
		default: // number or boolean: its literal text
			return string(b), nil
		}
	}
	if len(raw) > 0 && raw[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, fault.Coded(fault.Invalid, "err.httpx.bad_type", "Field", i18n.FieldName(field))
		}
		out := make([]string, 0, len(items))
		for _, it := range items {
			v, err := scalar(bytes.TrimSpace(it))
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	v, err := scalar(raw)
	if err != nil {
		return nil, err
	}
	return []string{v}, nil
}

// Texts returns the named text fields: nil for one not sent or sent as JSON null
// (callers decide whether that means "keep" or "missing"); a JSON number is taken
// as its text, since scripts send phone numbers as numbers; a JSON boolean is
// refused, naming the field (objects and arrays were refused by ReadInput).
func (in Input) Texts(names ...string) (map[string]*string, error) {
	out := make(map[string]*string, len(names))
	for _, name := range names {
		if !in.Has(name) {
			continue
		}
		switch in.kinds[name] {
		case 'n':
			continue
		case 't', 'f':
			return nil, fault.Coded(fault.Invalid, "err.httpx.text", "Field", i18n.FieldName(name))
		}
		v := in.Str(name)
		out[name] = &v
	}
	return out, nil
}

// ReadTexts reads a request that must have a body and returns its named text
// fields (ReadInput, RequireBody, Texts).
func ReadTexts(w http.ResponseWriter, r *http.Request, names ...string) (map[string]*string, error) {
	in, err := ReadInput(w, r)
	if err == nil {
		err = in.RequireBody()
	}
	if err != nil {
		return nil, err
	}
	return in.Texts(names...)
}

// has reports whether the field was sent.
func (in Input) Has(name string) bool {
	_, ok := in.values[name]
	return ok
}

// str returns the field's (first) value, "" when not sent.
func (in Input) Str(name string) string {
	if v := in.values[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// opt returns the field's value, or nil when it was not sent.
func (in Input) Opt(name string) *string {
	if !in.Has(name) {
		return nil
	}
	v := in.Str(name)
	return &v
}

// first returns the first of several accepted names that was sent.
func (in Input) First(names ...string) string {
	for _, n := range names {
		if in.Has(n) {
			return n
		}
	}
	return names[0]
}

// optInt reads an optional integer field; blank counts as not sent.
func (in Input) OptInt(name string) (*int64, error) {
	s := strings.TrimSpace(in.Str(name))
	if s == "" {
		return nil, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil, fault.Coded(fault.Invalid, "err.httpx.integer", "Field", i18n.FieldName(name), "Value", s)
	}
	return &v, nil
}

// ids reads a list of ids (JSON array, repeated form field, or one id); blank
// entries are skipped. nil when the field was not sent.
func (in Input) IDs(name string) (*[]int64, error) {
	if !in.Has(name) {
		return nil, nil
	}
	out := []int64{}
	for _, raw := range in.values[name] {
		for _, s := range strings.Split(raw, ",") {
			s = strings.TrimSpace(s)
			if s == "" {
				continue
			}
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, fault.Coded(fault.Invalid, "err.httpx.id_list", "Field", i18n.FieldName(name), "Value", s)
			}
			out = append(out, v)
		}
	}
	return &out, nil
}

// optBool reads an optional boolean (true/false, 1/0, on/off, sí/no). With several
// values the last wins, so a page can send a hidden "false" before its checkbox.
func (in Input) OptBool(name string) (*bool, error) {
	v := in.values[name]
	if len(v) == 0 {
		return nil, nil
	}
	s := strings.ToLower(strings.TrimSpace(v[len(v)-1]))
	var b bool
	switch s {
	case "true", "1", "on", "si", "sí", "yes":
		b = true
	case "false", "0", "off", "no", "":
		b = false
	default:
		return nil, fault.Coded(fault.Invalid, "err.httpx.yes_no", "Field", i18n.FieldName(name), "Value", s)
	}
	return &b, nil
}

// Flag reads a yes/no field that defaults to false: in JSON it must be true,
// false or null (a string or a number is refused, naming the field); in a form,
// a checkbox ("on") or the words OptBool accepts.
func (in Input) Flag(name string) (bool, error) {
	if !in.Has(name) {
		return false, nil
	}
	if in.json {
		switch in.kinds[name] {
		case 't', 'f', 'n':
		default:
			return false, fault.Coded(fault.Invalid, "err.httpx.true_false", "Field", i18n.FieldName(name))
		}
	}
	b, err := in.OptBool(name)
	return b != nil && *b, err
}

// optCents reads an optional amount in euros with at most 2 decimals.
func (in Input) OptCents(name string) (*money.Cents, error) {
	s := strings.TrimSpace(in.Str(name))
	if s == "" {
		return nil, nil
	}
	// The pages write amounts the Spanish way ("12,50"); a single decimal comma is
	// read as the point.
	if strings.Count(s, ",") == 1 && !strings.Contains(s, ".") {
		s = strings.Replace(s, ",", ".", 1)
	}
	c, err := money.ParseCents(s)
	if err != nil {
		return nil, fault.Coded(fault.Invalid, "err.httpx.amount", "Field", i18n.FieldName(name), "Value", s)

	}
	return &c, nil
}

// optDate reads an optional date field (docs/dates.md#accepted-forms); blank counts as not sent.
func (in Input) OptDate(name string, loc *time.Location) (*time.Time, error) {
	t, err := ParseDateField(name, in.Str(name), loc)
	if err != nil || t.IsZero() {
		return nil, err
	}
	return &t, nil
}

// IsJSON reports whether the body was JSON (so the client reads JSON answers).
func (in Input) IsJSON() bool { return in.json }

// Values returns every value sent for the field (a repeated form field, a JSON
// array), nil when it was not sent.
func (in Input) Values(name string) []string { return in.values[name] }

// Names lists the fields that were sent, in no particular order.
func (in Input) Names() []string {
	out := make([]string, 0, len(in.values))
	for k := range in.values {
		out = append(out, k)
	}
	return out
}
