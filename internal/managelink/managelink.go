// Package managelink signs and checks the links that let a customer manage a
// booking without an account (docs/manage-booking.md#the-token): a token bound to the booking
// reference and an expiry (30 days after the exit), signed with HMAC-SHA256 under
// the service's secret key, so that the link needs no stored state and works on
// every instance that shares the key.
package managelink

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// Validity is how long after the stay's end a manage link keeps working.
const Validity = 30 * 24 * time.Hour

// Signer makes and checks manage tokens and links.
type Signer struct {
	key  []byte // derived from the service key for this one use
	base string // PARKING_BASE_URL without a trailing slash
}

// New builds a signer from the service's secret key (PARKING_SECRET_KEY or the one
// generated and kept in the database) and the public base URL. The signing key is
// derived from the secret for this purpose alone, so that the same secret can
// serve other uses without one token standing in for another.
func New(secret []byte, baseURL string) *Signer {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("parking manage-link v1"))
	return &Signer{key: m.Sum(nil), base: strings.TrimRight(baseURL, "/")}
}

// GenerateSecret draws a new service secret (hex of 32 random bytes).
func GenerateSecret() string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b[:])
}

// Expiry is when a booking's link stops working: 30 days after its exit; a stay
// without an exit yet (a walk-in) counts from the later of its entry and now.
func Expiry(entry time.Time, exit *time.Time, now time.Time) time.Time {
	end := entry
	if exit != nil {
		end = *exit
	} else if now.After(end) {
		end = now
	}
	return end.Add(Validity).Truncate(time.Second)
}

// Token signs reference (stored form) until expires: "<expiry in base 36>.<mac>".
func (s *Signer) Token(reference string, expires time.Time) string {
	exp := strconv.FormatInt(expires.Unix(), 36)
	return exp + "." + s.mac(reference, exp)
}

// Valid reports whether token was signed for reference and has not expired at now.
func (s *Signer) Valid(reference, token string, now time.Time) bool {
	exp, mac, ok := strings.Cut(token, ".")
	if !ok || len(token) > 64 {
		return false
	}
	secs, err := strconv.ParseInt(exp, 36, 64)
	if err != nil || !now.Before(time.Unix(secs, 0)) {
		return false
	}
	return hmac.Equal([]byte(mac), []byte(s.mac(reference, exp)))
}

// URL is the manage link: {PARKING_BASE_URL}/reserva/{reference}?t={token}.
func (s *Signer) URL(reference, token string) string {
	return s.base + "/reserva/" + reference + "?t=" + token
}

// Link is the token and URL of a booking at now.
func (s *Signer) Link(reference string, entry time.Time, exit *time.Time, now time.Time) (token, url string) {
	token = s.Token(reference, Expiry(entry, exit, now))
	return token, s.URL(reference, token)
}

// EntryDocumentURL is the vehicle's entry document through the manage link:
// {PARKING_BASE_URL}/reserva/{reference}/justificante?t={token}, signed and
// checked as the manage link is (docs/entry-document.md).
func (s *Signer) EntryDocumentURL(reference string, entry time.Time, exit *time.Time, now time.Time) string {
	return s.base + "/reserva/" + reference + "/justificante?t=" + s.Token(reference, Expiry(entry, exit, now))
}

func (s *Signer) mac(reference, exp string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(reference + "|" + exp))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}
