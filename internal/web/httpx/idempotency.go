package httpx

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"

	"parking/internal/fault"
)

// MaxIdempotencyKey is the longest Idempotency-Key accepted (docs/public-booking.md#retries-idempotency-key).
const MaxIdempotencyKey = 255

// ReadIdempotency reads the Idempotency-Key header of a booking route
// (docs/public-booking.md#retries-idempotency-key): "" when there is none. With a key, it also returns the SHA-256 of the
// request body (which stays readable for the route). A key that is not 1 to 255
// printable ASCII characters is refused (400).
func ReadIdempotency(r *http.Request) (key, bodyHash string, err error) {
	values, sent := r.Header["Idempotency-Key"]
	if !sent {
		return "", "", nil
	}
	key = values[0]
	ok := len(values) == 1 && len(key) >= 1 && len(key) <= MaxIdempotencyKey
	for i := 0; ok && i < len(key); i++ {
		ok = key[i] >= 0x20 && key[i] < 0x7f
	}
	if !ok {
		return "", "", fault.Coded(fault.Invalid, "err.httpx.idempotency_key", "Max", MaxIdempotencyKey)
	}
	// One byte over the limit is kept, so that the route still refuses a body
	// that is too large.
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	if err != nil {
		return "", "", errBodyUnreadable

	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	sum := sha256.Sum256(body)
	return key, hex.EncodeToString(sum[:]), nil
}

// JSONAnswer encodes v as WriteJSON would write it, for storing under a key.
func JSONAnswer(v any) (contentType string, body []byte, err error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", nil, err
	}
	return "application/json; charset=utf-8", buf.Bytes(), nil
}

// WriteStored sends a stored answer again, as the first request got it.
func WriteStored(w http.ResponseWriter, status int, contentType, location string, body []byte) {
	if contentType != "" {
		w.Header().Set("Content-Type", contentType)
	}
	if location != "" {
		w.Header().Set("Location", location)
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Idempotent-Replayed", "true")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// BodyHash reads the request body (which stays readable for the route) and returns
// its SHA-256: the body of a request whose key is in the body itself (a partner's
// reference, docs/partners.md#booking).
func BodyHash(r *http.Request) (string, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	if err != nil {
		return "", errBodyUnreadable
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:]), nil
}
