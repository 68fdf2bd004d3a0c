// Package apispec checks the HTTP tests' exchanges against the service's OpenAPI
// document (internal/web/api/openapi) with github.com/pb33f/libopenapi-validator,
// so that the document cannot drift from the code: a JSON answer that does not
// match its route's schema, a 2xx answer to a request the document would refuse,
// or a route the document does not list fails the test that made the request.
//
// Opt-in: Client wraps one client; with PARKING_TEST_OPENAPI=1 every client made
// by apptest.Client (and so by the web tests' helpers) is wrapped.
package apispec

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	verrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/helpers"

	"parking/internal/web/api/openapi"
)

// Env turns validation on for every test client (apptest.Client).
const Env = "PARKING_TEST_OPENAPI"

// Enabled reports whether Env asks for validation.
func Enabled() bool { return os.Getenv(Env) == "1" }

// load builds the validator once; the validator is safe for concurrent use.
var load = sync.OnceValues(func() (validator.Validator, error) {
	doc, err := libopenapi.NewDocument(openapi.JSON())
	if err != nil {
		return nil, fmt.Errorf("read the OpenAPI document: %w", err)
	}
	v, errs := validator.NewValidator(doc, config.WithoutSecurityValidation())
	if len(errs) > 0 {
		return nil, fmt.Errorf("build the OpenAPI validator: %v", errs)
	}
	return v, nil
})

// loadStrict is the validator of answers under StrictEnv: the document with every
// object schema closed (strict.go).
var loadStrict = sync.OnceValues(func() (validator.Validator, error) {
	doc, err := libopenapi.NewDocument(closeObjects(openapi.JSON()))
	if err != nil {
		return nil, fmt.Errorf("read the closed OpenAPI document: %w", err)
	}
	v, errs := validator.NewValidator(doc, config.WithoutSecurityValidation())
	if len(errs) > 0 {
		return nil, fmt.Errorf("build the closed OpenAPI validator: %v", errs)
	}
	return v, nil
})

// Validator is the document's validator (tests of the document itself use it).
func Validator() (validator.Validator, error) { return load() }

// Client makes c validate every JSON exchange against the document; a mismatch is
// reported with tb.Errorf, naming the route.
func Client(tb testing.TB, c *http.Client) *http.Client {
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = &transport{tb: tb, base: base}
	return c
}

type transport struct {
	tb   testing.TB
	base http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil {
		var err error
		if reqBody, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	res, err := t.base.RoundTrip(req)
	if err != nil || !speaksJSON(res) {
		return res, err
	}
	resBody, err := io.ReadAll(res.Body)
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(resBody))
	if err != nil {
		return res, nil // the test reading the body sees the failure
	}
	checked := resBody
	if res.Header.Get("Content-Encoding") == "gzip" { // the test asked for it: check what it decodes to
		zr, zerr := gzip.NewReader(bytes.NewReader(resBody))
		if zerr == nil {
			checked, zerr = io.ReadAll(zr)
		}
		if zerr != nil {
			t.tb.Errorf("OpenAPI: %s %s: a gzip body that does not decompress: %v", req.Method, req.URL.Path, zerr)
			return res, nil
		}
	}
	if problems := Check(req, reqBody, res, checked); len(problems) > 0 {
		t.tb.Errorf("OpenAPI: %s %s answered %d:\n  %s", req.Method, req.URL.Path, res.StatusCode, strings.Join(problems, "\n  "))
	}
	return res, nil
}

// speaksJSON: only JSON answers (and bodiless 204s) are the API's; pages, static
// files, event streams, CSV and redirects are not described by the document.
func speaksJSON(res *http.Response) bool {
	if res.StatusCode == http.StatusNoContent {
		return true
	}
	mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
	return mt == "application/json"
}

// Check validates one exchange and returns what is wrong, each naming the route.
// The request is checked only when it was answered 2xx and carried JSON or no
// body: tests send invalid requests on purpose, and the service answering them
// with a 4xx is right; a 2xx to a request the document forbids is drift.
func Check(req *http.Request, reqBody []byte, res *http.Response, resBody []byte) []string {
	v, err := load()
	if err != nil {
		return []string{err.Error()}
	}
	vreq := req.Clone(req.Context())
	vreq.Body = io.NopCloser(bytes.NewReader(reqBody))
	vres := *res
	vres.Body = io.NopCloser(bytes.NewReader(resBody))
	vres.Request = vreq

	ok2xx := res.StatusCode >= 200 && res.StatusCode < 300
	reqMT, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
	var errs []*verrors.ValidationError
	switch {
	case Strict():
		// Requests are read with the open document (the service ignores fields it
		// does not know); answers with the closed one.
		sv, err := loadStrict()
		if err != nil {
			return []string{err.Error()}
		}
		if ok2xx && (len(reqBody) == 0 || reqMT == "application/json") {
			_, errs = v.ValidateHttpRequest(vreq)
			vreq.Body = io.NopCloser(bytes.NewReader(reqBody))
		}
		_, rerrs := sv.ValidateHttpResponse(vreq, &vres)
		errs = append(errs, rerrs...)
	case ok2xx && (len(reqBody) == 0 || reqMT == "application/json"):
		_, errs = v.ValidateHttpRequestResponse(vreq, &vres)
	default:
		_, errs = v.ValidateHttpResponse(vreq, &vres)
	}
	var out []string
	seen := map[string]bool{} // under StrictEnv both validators may name the same fault
	for _, e := range errs {
		if e.ValidationType == helpers.PathValidation &&
			(e.ValidationSubType == helpers.ValidationMissing || e.ValidationSubType == helpers.ValidationMissingOperation) {
			if res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusMethodNotAllowed {
				continue // not a route: the site's 404/405 answer
			}
			if msg := fmt.Sprintf("undocumented route %s %s: add it to a piece of internal/web/api/openapi/ (see base.yaml)",
				req.Method, req.URL.Path); !seen[msg] {
				seen[msg] = true
				out = append(out, msg)
			}
			continue
		}
		msg := e.Message
		if e.Reason != "" {
			msg += ": " + e.Reason
		}
		for _, s := range e.SchemaValidationErrors {
			msg += fmt.Sprintf(" [%s at %s]", s.Reason, s.FieldPath)
		}
		if !seen[msg] {
			seen[msg] = true
			out = append(out, msg)
		}
	}
	return out
}
