package httpx

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// DBDeadline gives every request a deadline except the exempt paths, given
// exactly or as path.Match patterns (photo uploads and photos, docs/photos.md).
func TestDBDeadlineExemptions(t *testing.T) {
	var had bool
	h := DBDeadline(time.Second, "/admin/history.csv", "/admin/reservations/*/photos", "/media/photos/*/*")(
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, had = r.Context().Deadline() }))
	for path, want := range map[string]bool{
		"/admin/history.csv": false, "/admin/reservations/12/photos": false, "/media/photos/3/large": false,
		"/admin/reservations/12/start": true, "/admin/reservations/12/photos/x": true, "/media/photos/3": true, "/": true,
	} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
		if had != want {
			t.Errorf("%s: deadline %v, want %v", path, had, want)
		}
	}
}
