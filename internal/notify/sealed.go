package notify

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
)

// Sealed links (docs/notifications.md#sealed-links). A link that is a credential
// (an email verification or a password reset) must not lie readable in the outbox,
// where staff, the data export and a database dump can read it: it leaves only in
// the delivered notification. The outbox therefore stores it sealed, encrypted
// with AES-256-GCM under a key derived from the service's secret
// (PARKING_SECRET_KEY), as the string SealedPrefix + base64url(nonce ‖ ciphertext);
// the dispatcher opens every sealed string of a body just before posting it.

// SealedPrefix starts a sealed value in a stored payload.
const SealedPrefix = "sealed:v1:"

// sealedAAD binds a sealed value to this one use of the key.
var sealedAAD = []byte("parking outbox sealed url")

// ErrSealed: a sealed value does not open (tampered, or sealed under another key).
var ErrSealed = errors.New("sealed link does not open: PARKING_SECRET_KEY changed, or the row was altered")

// Sealer seals and opens links with a key derived from the service's secret.
type Sealer struct{ aead cipher.AEAD }

// NewSealer derives the sealing key from secret (HMAC-SHA256 of a fixed label, so
// the same secret can sign other things without one use standing in for another).
func NewSealer(secret []byte) *Sealer {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("parking outbox-seal v1"))
	block, err := aes.NewCipher(m.Sum(nil)) // 32 bytes: AES-256
	if err != nil {
		panic("aes: " + err.Error()) // cannot happen with a 32-byte key
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic("gcm: " + err.Error())
	}
	return &Sealer{aead: aead}
}

// SealedURL is a link sealed for storage: SealedPrefix and the encrypted link.
func (s *Sealer) SealedURL(link string) string {
	nonce := make([]byte, s.aead.NonceSize())
	_, _ = rand.Read(nonce) // crypto/rand.Read never fails (Go 1.24+)
	out := s.aead.Seal(nonce, nonce, []byte(link), sealedAAD)
	return SealedPrefix + base64.RawURLEncoding.EncodeToString(out)
}

// Open returns the link of a SealedURL value.
func (s *Sealer) Open(sealed string) (string, error) {
	raw, ok := bytes.CutPrefix([]byte(sealed), []byte(SealedPrefix))
	if !ok {
		return "", ErrSealed
	}
	b, err := base64.RawURLEncoding.DecodeString(string(raw))
	n := s.aead.NonceSize()
	if err != nil || len(b) < n {
		return "", ErrSealed
	}
	link, err := s.aead.Open(nil, b[:n], b[n:], sealedAAD)
	if err != nil {
		return "", ErrSealed
	}
	return string(link), nil
}

// OpenBody returns body with every sealed string value replaced by its link, the
// rest byte for byte as stored (a sealed value is base64url: it never holds a quote
// or an escape). A body without sealed values is returned as is; one that holds a
// value that does not open, or any sealed value when s is nil, is ErrSealed.
func (s *Sealer) OpenBody(body []byte) ([]byte, error) {
	marker := []byte(`"` + SealedPrefix)
	if !bytes.Contains(body, marker) {
		return body, nil
	}
	if s == nil {
		return nil, ErrSealed
	}
	var out bytes.Buffer
	rest := body
	for {
		i := bytes.Index(rest, marker)
		if i < 0 {
			out.Write(rest)
			return out.Bytes(), nil
		}
		out.Write(rest[:i])
		rest = rest[i+1:]
		end := bytes.IndexByte(rest, '"')
		if end < 0 {
			return nil, ErrSealed
		}
		link, err := s.Open(string(rest[:end]))
		if err != nil {
			return nil, err
		}
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(link); err != nil {
			return nil, fmt.Errorf("open sealed link: %w", err)
		}
		out.Truncate(out.Len() - 1) // Encode's newline
		rest = rest[end+1:]
	}
}
