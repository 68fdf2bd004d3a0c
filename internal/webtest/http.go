package webtest

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

// Response is a finished HTTP exchange, body read.
type Response struct {
	*http.Response
	Body string
}

// Do sends a request with the given headers ("Name: value") and reads the answer.
func Do(t *testing.T, c *http.Client, method, u string, body io.Reader, headers ...string) Response {
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
	return Response{Response: res, Body: string(b)}
}

// PostForm posts an urlencoded form, as a browser does.
func PostForm(t *testing.T, c *http.Client, u string, form url.Values, headers ...string) Response {
	t.Helper()
	return Do(t, c, "POST", u, strings.NewReader(form.Encode()),
		append([]string{"Content-Type: application/x-www-form-urlencoded"}, headers...)...)
}

// PostJSON posts v as JSON and asks for JSON.
func PostJSON(t *testing.T, c *http.Client, u string, v any, headers ...string) Response {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return Do(t, c, "POST", u, bytes.NewReader(b),
		append([]string{"Content-Type: application/json", "Accept: application/json"}, headers...)...)
}

// Decode parses a JSON body into a generic map.
func Decode(t *testing.T, r Response) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Body), &m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.Body)
	}
	return m
}

// WantStatus fails the test unless the response has status want.
func WantStatus(t *testing.T, r Response, want int) {
	t.Helper()
	if r.StatusCode != want {
		t.Fatalf("%s %s: status = %d, want %d\nbody: %.600s", r.Request.Method, r.Request.URL.Path, r.StatusCode, want, r.Body)
	}
}

// WantBody fails the test unless the body is exactly want plus the encoder's newline.
func WantBody(t *testing.T, r Response, want string) {
	t.Helper()
	if r.Body != want+"\n" {
		t.Fatalf("%s %s: body = %s, want %s", r.Request.Method, r.Request.URL.Path, r.Body, want)
	}
}

// SessionCookie returns the parking_session cookie the response sets, or nil.
func SessionCookie(r Response) *http.Cookie {
	for _, c := range r.Cookies() {
		if c.Name == "parking_session" {
			return c
		}
	}
	return nil
}

// CountRows runs SELECT COUNT(*) with args on the app's database.
func CountRows(t *testing.T, a *app.App, query string, args ...any) int {
	t.Helper()
	var n int
	if err := a.Store.DB().QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// Exec runs a statement on the app's database, for tests that age sessions or tokens.
func Exec(t *testing.T, a *app.App, query string, args ...any) {
	t.Helper()
	if _, err := a.Store.WriteDB().Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// Login posts the login form and returns the response.
func Login(t *testing.T, c *http.Client, a *app.App, email, password, loginType string, headers ...string) Response {
	t.Helper()
	return PostForm(t, c, a.URL+"/users/login", url.Values{"email": {email}, "password": {password}, "loginType": {loginType}}, headers...)
}

func Itoa(n int64) string { return strconv.FormatInt(n, 10) }
