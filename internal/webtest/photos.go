package webtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"testing"
)

// Multipart builds a multipart/form-data body with one "file" part per file and
// the fields, and returns it with its Content-Type.
func Multipart(t testing.TB, files [][]byte, fields map[string]string) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := mw.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for i, f := range files {
		w, err := mw.CreateFormFile("file", fmt.Sprintf("foto-%d.jpg", i+1)) // the name says nothing: the bytes decide
		if err != nil {
			t.Fatal(err)
		}
		w.Write(f)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return &buf, mw.FormDataContentType()
}

// Upload posts files (and fields) to POST /admin/reservations/{id}/photos as
// multipart/form-data and decodes the JSON answer.
func (e *AdminEnv) Upload(id int64, files [][]byte, fields map[string]string) (int, map[string]any) {
	e.T.Helper()
	body, ct := Multipart(e.T, files, fields)
	req, err := http.NewRequest("POST", fmt.Sprintf("%s/admin/reservations/%d/photos", e.A.URL, id), body)
	if err != nil {
		e.T.Fatal(err)
	}
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Accept", "application/json")
	resp, err := e.C.Do(req)
	if err != nil {
		e.T.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		e.T.Fatalf("upload: %d, body is not JSON: %v", resp.StatusCode, err)
	}
	return resp.StatusCode, out
}

// MediaFiles counts the files under the service's local photo directory.
func (e *AdminEnv) MediaFiles() int {
	e.T.Helper()
	n := 0
	filepath.WalkDir(e.A.Config.MediaDir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}
