package httpx

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Compression of pages and static files: the budget is 100 KB
// *transferred* per page, and text compresses five to eight times. Static files
// are compressed once, at start-up; pages when they are written, from the buffer
// render already holds. JSON answers are left alone: they are small, and the
// server-sent events of the parking board must not be buffered by a compressor.

// minGzip is the size below which compressing costs more than it saves.
const minGzip = 1024

// AcceptsGzip reports whether the request's Accept-Encoding allows gzip (RFC 9110
// §12.5.3): listed, or "*", and not with q=0.
func AcceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		if strings.HasPrefix(q, "q=") {
			if v, err := strconv.ParseFloat(q[2:], 64); err == nil && v == 0 {
				return false
			}
		}
		return true
	}
	return false
}

// Static files are compressed once, as hard as gzip can; pages on every request,
// at the fastest level: serving the booking page went from 0.8 to 0.4 ms of the
// two cores for about 600 more bytes (BenchmarkCustomerPages, README "Web pages").
var (
	GzipBest = sync.Pool{New: func() any { zw, _ := gzip.NewWriterLevel(nil, gzip.BestCompression); return zw }}
	GzipFast = sync.Pool{New: func() any { zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed); return zw }}
)

// GzipBytes compresses b with a writer from pool, or returns nil when b is too
// small to be worth it.
func GzipBytes(pool *sync.Pool, b []byte) []byte {
	if len(b) < minGzip {
		return nil
	}
	var out bytes.Buffer
	zw := pool.Get().(*gzip.Writer)
	zw.Reset(&out)
	_, _ = zw.Write(b)
	_ = zw.Close()
	pool.Put(zw)
	return out.Bytes()
}

// WriteBody writes body with status, gzip-compressed for clients that accept it.
// gz is the body compressed in advance (static files), or nil to compress now.
// The headers other than the body's length and encoding are the caller's.
func WriteBody(w http.ResponseWriter, r *http.Request, status int, body, gz []byte) {
	h := w.Header()
	h.Add("Vary", "Accept-Encoding")
	if AcceptsGzip(r) {
		if gz == nil {
			gz = GzipBytes(&GzipFast, body)
		}
		if gz != nil {
			body = gz
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}
