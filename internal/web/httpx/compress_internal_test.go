package httpx

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestAcceptsGzip(t *testing.T) {
	for header, want := range map[string]bool{
		"": false, "gzip": true, "GZIP": true, "gzip, deflate, br": true, "br;q=1.0, gzip;q=0.8": true,
		"gzip;q=0": false, "gzip; q=0.0": false, "*": true, "*;q=0": false, "identity": false, "deflate, br": false,
	} {
		r := httptest.NewRequest("GET", "/", nil)
		if header != "" {
			r.Header.Set("Accept-Encoding", header)
		}
		if got := AcceptsGzip(r); got != want {
			t.Errorf("Accept-Encoding %q: %v, want %v", header, got, want)
		}
	}
}

func TestWriteBody(t *testing.T) {
	big := []byte(strings.Repeat("<p>Reserva de aparcamiento</p>\n", 100))
	for _, tc := range []struct {
		name, accept, method string
		body                 []byte
		wantEncoding         string
	}{
		{"compressed", "gzip", "GET", big, "gzip"},
		{"not accepted", "", "GET", big, ""},
		{"too small", "gzip", "GET", []byte("<p>hola</p>"), ""},
		{"head", "gzip", "HEAD", big, "gzip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, "/", nil)
			if tc.accept != "" {
				r.Header.Set("Accept-Encoding", tc.accept)
			}
			w := httptest.NewRecorder()
			WriteBody(w, r, http.StatusTeapot, tc.body, nil)
			res := w.Result()
			if res.StatusCode != http.StatusTeapot || res.Header.Get("Content-Encoding") != tc.wantEncoding || res.Header.Get("Vary") != "Accept-Encoding" {
				t.Fatalf("status %d, encoding %q, vary %q", res.StatusCode, res.Header.Get("Content-Encoding"), res.Header.Get("Vary"))
			}
			got := w.Body.Bytes()
			if tc.method == "HEAD" {
				if len(got) != 0 || res.Header.Get("Content-Length") == "" {
					t.Errorf("HEAD: body %d bytes, Content-Length %q", len(got), res.Header.Get("Content-Length"))
				}
				return
			}
			if tc.wantEncoding == "gzip" {
				zr, err := gzip.NewReader(bytes.NewReader(got))
				if err != nil {
					t.Fatal(err)
				}
				if got, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(got, tc.body) {
				t.Error("body changed on the way")
			}
		})
	}
}
