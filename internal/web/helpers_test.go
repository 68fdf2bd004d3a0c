package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"parking/internal/app"
)

// response is a finished HTTP exchange, body read.
type response struct {
	*http.Response
	Body string
}

// do sends a request with the given headers ("Name: value") and reads the answer.
func do(t *testing.T, c *http.Client, method, u string, body io.Reader, headers ...string) response {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range headers {
		name, value, _ := strings.Cut(h, ": ")
		req.Header.Set(name, value)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{Response: res, Body: string(b)}
}

// postForm posts an urlencoded form, as a browser does.
func postForm(t *testing.T, c *http.Client, u string, form url.Values, headers ...string) response {
	t.Helper()
	return do(t, c, "POST", u, strings.NewReader(form.Encode()),
		append([]string{"Content-Type: application/x-www-form-urlencoded"}, headers...)...)
}

// postJSON posts v as JSON and asks for JSON.
func postJSON(t *testing.T, c *http.Client, u string, v any, headers ...string) response {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return do(t, c, "POST", u, bytes.NewReader(b),
		append([]string{"Content-Type: application/json", "Accept: application/json"}, headers...)...)
}

// decode parses a JSON body into a generic map.
func decode(t *testing.T, r response) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Body), &m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.Body)
	}
	return m
}

// wantStatus fails the test unless the response has status want.
func wantStatus(t *testing.T, r response, want int) {
	t.Helper()
	if r.StatusCode != want {
		t.Fatalf("%s %s: status = %d, want %d\nbody: %.600s", r.Request.Method, r.Request.URL.Path, r.StatusCode, want, r.Body)
	}
}

// wantBody fails the test unless the body is exactly want plus the encoder's newline.
func wantBody(t *testing.T, r response, want string) {
	t.Helper()
	if r.Body != want+"\n" {
		t.Fatalf("%s %s: body = %s, want %s", r.Request.Method, r.Request.URL.Path, r.Body, want)
	}
}

// sessionCookie returns the parking_session cookie the response sets, or nil.
func sessionCookie(r response) *http.Cookie {
	for _, c := range r.Cookies() {
		if c.Name == "parking_session" {
			return c
		}
	}
	return nil
}

// countRows runs SELECT COUNT(*) with args on the app's database.
func countRows(t *testing.T, a *app.App, query string, args ...any) int {
	t.Helper()
	var n int
	if err := a.Store.DB().QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// exec runs a statement on the app's database, for tests that age sessions or tokens.
func exec(t *testing.T, a *app.App, query string, args ...any) {
	t.Helper()
	if _, err := a.Store.WriteDB().Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// login posts the login form and returns the response.
func login(t *testing.T, c *http.Client, a *app.App, email, password, loginType string, headers ...string) response {
	t.Helper()
	return postForm(t, c, a.URL+"/users/login", url.Values{"email": {email}, "password": {password}, "loginType": {loginType}}, headers...)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
