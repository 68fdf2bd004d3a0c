package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/localtime"
)

// MaxBody is the JSON body limit (docs/input-rules.md#request-bodies).
const MaxBody = 64 << 10

// DecodeJSON reads one JSON object into dst, refusing bodies over 64 KiB, malformed
// JSON, wrong field types and trailing data with a message that names the problem.
// Unknown fields are ignored (clients send a total_price that the spec ignores).
func DecodeJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	body, err := ReadBody(w, r)
	if err != nil {
		return err
	}
	return UnmarshalBody(body, dst)
}

// ReadBody reads a JSON body as DecodeJSON does, refusing one over 64 KiB: for a
// handler that parses its usual bodies itself and hands the others to UnmarshalBody.
func ReadBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if n := r.ContentLength; n >= 0 && n <= MaxBody {
		// A declared length within the limit (the server's body reader stops there):
		// read into a buffer of that size.
		body := make([]byte, n)
		if _, err := io.ReadFull(r.Body, body); err != nil {
			return nil, errBodyUnreadable
		}
		return body, nil
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, errBodyTooLarge
		}
		return nil, errBodyUnreadable
	}
	return body, nil
}

// UnmarshalBody decodes a body ReadBody read into dst, with DecodeJSON's refusals.
func UnmarshalBody(body []byte, dst any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return ErrEmptyBody
	}
	// json.Unmarshal also refuses trailing data after the object.
	if err := json.Unmarshal(body, dst); err != nil {
		var typeErr *json.UnmarshalTypeError
		var syntaxErr *json.SyntaxError
		switch {
		case errors.As(err, &syntaxErr):
			return fault.Coded(fault.Invalid, "err.httpx.json_syntax", "Offset", syntaxErr.Offset)
		case errors.As(err, &typeErr):
			if typeErr.Field != "" {
				return fault.Coded(fault.Invalid, typeCode(typeErr.Type.String()), "Field", i18n.FieldName(typeErr.Field))
			}
			return fault.Coded(fault.Invalid, "err.httpx.json_object")
		default:
			return fault.Coded(fault.Invalid, "err.httpx.json_malformed", "Detail", strings.TrimPrefix(err.Error(), "json: "))
		}
	}
	return nil
}

// typeCode is the refusal of a JSON member of the wrong type, by the Go type expected.
func typeCode(t string) string {
	switch {
	case strings.Contains(t, "string"):
		return "err.httpx.type_text"
	case strings.Contains(t, "int"), strings.Contains(t, "float"):
		return "err.httpx.type_number"
	case strings.Contains(t, "bool"):
		return "err.httpx.type_bool"
	case strings.HasPrefix(t, "[]"):
		return "err.httpx.type_list"
	}
	return "err.httpx.type_other"
}

// Refusals of a body that cannot be read.
var (
	errBodyTooLarge   = fault.Coded(fault.Invalid, "err.httpx.body_too_large", "KiB", MaxBody>>10)
	errBodyUnreadable = fault.Coded(fault.Invalid, "err.httpx.body_unreadable")
)

// FlexInt accepts a JSON integer or a string holding one ("3"), because HTML forms
// and their scripts send numbers as text. null and "" mean "not sent".
type FlexInt struct {
	Value int64
	Set   bool
}

func (f *FlexInt) UnmarshalJSON(b []byte) error {
	s := string(bytes.TrimSpace(b))
	if s == "null" {
		return nil
	}
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return nil
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return &json.UnmarshalTypeError{Value: "number " + s, Type: intType}
	}
	f.Value, f.Set = v, true
	return nil
}

var intType = reflect.TypeOf(int64(0))

// FlexIDs is a list of ids: [1, 2], ["1", "2"], a single id, or null.
type FlexIDs []int64

func (f *FlexIDs) UnmarshalJSON(b []byte) error {
	s := bytes.TrimSpace(b)
	if string(s) == "null" {
		*f = nil
		return nil
	}
	if len(s) > 0 && s[0] != '[' {
		var one FlexInt
		if err := one.UnmarshalJSON(s); err != nil {
			return err
		}
		if one.Set {
			*f = FlexIDs{one.Value}
		}
		return nil
	}
	var raw []FlexInt
	if err := json.Unmarshal(s, &raw); err != nil {
		return err
	}
	out := make(FlexIDs, 0, len(raw))
	for _, v := range raw {
		if v.Set {
			out = append(out, v.Value)
		}
	}
	*f = out
	return nil
}

// ParseDateField reads an optional date field (docs/dates.md#accepted-forms); "" gives the zero time.
func ParseDateField(field, value string, loc *time.Location) (time.Time, error) {
	if strings.TrimSpace(value) == "" {
		return time.Time{}, nil
	}
	t, err := localtime.Parse(value, loc)
	if err != nil {
		return time.Time{}, fault.Coded(fault.Invalid, "err.httpx.date", "Field", i18n.FieldName(field), "Value", value)

	}
	return t, nil
}

// ParseStayDates reads the entry_date and exit_date texts of a request; either may
// be empty (zero entry, nil exit), and a bad one is a 400 naming its field.
func ParseStayDates(entryText, exitText string, loc *time.Location) (entry time.Time, exit *time.Time, err error) {
	if entry, err = ParseDateField("entry_date", entryText, loc); err != nil {
		return time.Time{}, nil, err
	}
	x, err := ParseDateField("exit_date", exitText, loc)
	if err != nil {
		return time.Time{}, nil, err
	}
	if !x.IsZero() {
		exit = &x
	}
	return entry, exit, nil
}
