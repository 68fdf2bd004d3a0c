package ui

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"parking/internal/web/httpx"
)

//go:embed static
var staticFiles embed.FS

// assets serves the embedded static files under names that carry a hash of their
// content (app.css → app.3f2a9c1e.css), so they can be cached for a year: a new
// release changes the name, and pages ask for the new one.
type assets struct {
	urls  map[string]string     // logical name → /static/hashed name
	files map[string]staticFile // hashed name → file
}

type staticFile struct {
	body        []byte
	gzip        []byte // body compressed at start-up (httpx/compress.go); nil when too small
	contentType string
}

func loadAssets() (*assets, error) {
	a := &assets{urls: map[string]string{}, files: map[string]staticFile{}}
	err := fs.WalkDir(staticFiles, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := staticFiles.ReadFile(p)
		if err != nil {
			return err
		}
		name := strings.TrimPrefix(p, "static/")
		sum := sha256.Sum256(body)
		ext := path.Ext(name)
		hashed := strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:])[:12] + ext
		ct := mime.TypeByExtension(ext)
		if ct == "" {
			ct = "application/octet-stream"
		}
		a.urls[name] = "/static/" + hashed
		a.files[hashed] = staticFile{body: body, gzip: httpx.GzipBytes(&httpx.GzipBest, body), contentType: ct}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load static files: %w", err)
	}
	return a, nil
}

// url is the template function "asset": the cache-busting address of a static file.
// An unknown name fails the render, which becomes a 500 and a log line naming the file.
func (a *assets) url(name string) (string, error) {
	u, ok := a.urls[name]
	if !ok {
		return "", fmt.Errorf("unknown static file %q", name)
	}
	return u, nil
}

// serveStatic is GET /static/{file}.
func (a *assets) serveStatic(w http.ResponseWriter, r *http.Request) {
	f, ok := a.files[r.PathValue("file")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.contentType)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	httpx.WriteBody(w, r, http.StatusOK, f.body, f.gzip)
}
