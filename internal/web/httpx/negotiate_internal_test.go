package httpx

import (
	"net/http/httptest"
	"testing"
)

func TestWantsJSON(t *testing.T) {
	for _, c := range []struct {
		accept string
		want   bool
	}{
		{"", false},
		{"application/json", true},
		{"text/html", false},
		{"*/*", false},
		{"application/json, text/html", true},
		{"text/html, application/json", false},
		{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", false}, // a browser
		{"text/html;q=0.5, application/json", true},
		{"application/json;q=0.4, text/html;q=0.9", false},
		{"application/json;q=0, */*", false},
		{"application/json, */*;q=0.1", true},
		{"application/json, */*", true}, // JSON named, HTML only through */*
		{"application/*, text/html;q=0.8", true},
		{"application/problem+json", true},
		{"text/html;q=0, application/json;q=0.1", true},
		{"APPLICATION/JSON", true},
		{"application/json; q=0.8, text/*; q=0.9", false},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		if c.accept != "" {
			r.Header.Set("Accept", c.accept)
		}
		if got := WantsJSON(r); got != c.want {
			t.Errorf("WantsJSON(Accept: %q) = %v, want %v", c.accept, got, c.want)
		}
	}
}

func TestBrowserForm(t *testing.T) {
	for _, c := range []struct {
		ctype, accept string
		want          bool
	}{
		{"application/x-www-form-urlencoded", "text/html,application/xhtml+xml,*/*;q=0.8", true},
		{"multipart/form-data; boundary=x", "text/html", true},
		{"application/x-www-form-urlencoded", "", false},
		{"application/x-www-form-urlencoded", "*/*", false},
		{"application/x-www-form-urlencoded", "application/json", false},
		{"application/x-www-form-urlencoded", "text/html;q=0.2, application/json", false},
		{"application/json", "text/html", false},
	} {
		r := httptest.NewRequest("POST", "/", nil)
		r.Header.Set("Content-Type", c.ctype)
		if c.accept != "" {
			r.Header.Set("Accept", c.accept)
		}
		if got := BrowserForm(r); got != c.want {
			t.Errorf("BrowserForm(%q, Accept: %q) = %v, want %v", c.ctype, c.accept, got, c.want)
		}
	}
}
