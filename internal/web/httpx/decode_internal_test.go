package httpx

import (
	"bytes"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
)

// ReadBody reads a body of declared length into a buffer of that size, and keeps
// the refusals of the general path: over 64 KiB (declared, or sent without a
// length), and a body that ends before its declared length.
func TestReadBody(t *testing.T) {
	big := strings.Repeat("x", MaxBody+1)
	for _, tc := range []struct {
		name   string
		body   io.Reader
		length int64 // -1: sent without a length (chunked)
		want   string
		err    error
	}{
		{"declared length", strings.NewReader(`{"a":1}`), 7, `{"a":1}`, nil},
		{"empty", strings.NewReader(""), 0, "", nil},
		{"no length", strings.NewReader(`{"a":1}`), -1, `{"a":1}`, nil},
		{"exactly the limit", strings.NewReader(big[:MaxBody]), MaxBody, big[:MaxBody], nil},
		{"declared over the limit", strings.NewReader(big), MaxBody + 1, "", errBodyTooLarge},
		{"no length, over the limit", strings.NewReader(big), -1, "", errBodyTooLarge},
		{"cut short", io.MultiReader(strings.NewReader(`{"a"`), iotest.ErrReader(io.ErrUnexpectedEOF)), 7, "", errBodyUnreadable},
		{"cut short, no length", io.MultiReader(strings.NewReader(`{"a"`), iotest.ErrReader(io.ErrUnexpectedEOF)), -1, "", errBodyUnreadable},
	} {
		r := httptest.NewRequest("POST", "/api/x", tc.body)
		r.ContentLength = tc.length
		got, err := ReadBody(httptest.NewRecorder(), r)
		if !errors.Is(err, tc.err) || (err == nil && !bytes.Equal(got, []byte(tc.want))) {
			t.Errorf("%s: %q, %v; want %d bytes, %v", tc.name, got, err, len(tc.want), tc.err)
		}
		if err == nil && got == nil {
			t.Errorf("%s: nil body", tc.name)
		}
	}
}
