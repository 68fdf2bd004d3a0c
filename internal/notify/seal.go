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
	"regexp"
)

// A payload field that carries a secret — a link with a token in it (reset_url,
// verify_url) — is stored sealed and opened only when the notification is sent
// (docs/notifications.md#sealed-fields). Build the payload with the field's value
// from Outbox.Seal: it is stored as {"sealed":"v1.<base64url>"} (AES-256-GCM, the
// key derived from the service's secret key) and the dispatcher puts the plain
// string back in the body it posts. The outbox row, `parking notifications list`
// and every history view only ever hold the sealed form.

// Sealed is a sealed payload value; it encodes as {"sealed":"v1.…"}.
type Sealed struct {
	Sealed string `json:"sealed"`
}

// Sealer seals and opens payload values with a key derived from the service's
// secret key (PARKING_SECRET_KEY, or the one kept in the database).
type Sealer struct{ aead cipher.AEAD }

const sealPrefix = "v1."

// sealAAD binds a sealed value to this use of the key.
var sealAAD = []byte("parking notification payload")

// NewSealer derives the sealing key from the service's secret: the key is for this
// purpose alone (the same secret also signs manage links).
func NewSealer(secret []byte) *Sealer {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("parking notification-seal v1"))
	block, err := aes.NewCipher(m.Sum(nil)) // 32 bytes: AES-256
	if err != nil {
		panic(err) // a 32-byte key is always valid
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return &Sealer{aead: aead}
}

// Seal encrypts plain for a payload field.
func (s *Sealer) Seal(plain string) Sealed {
	nonce := make([]byte, s.aead.NonceSize())
	_, _ = rand.Read(nonce) // crypto/rand.Read never fails (Go 1.24+)
	out := s.aead.Seal(nonce, nonce, []byte(plain), sealAAD)
	return Sealed{Sealed: sealPrefix + base64.RawURLEncoding.EncodeToString(out)}
}

// sealedValue matches a sealed value in a compact JSON body. Inside a JSON string a
// quote is escaped, so text a person typed can never match it.
var sealedValue = regexp.MustCompile(`\{"sealed":"v1\.([A-Za-z0-9_-]+)"\}`)

// ErrUnseal is a sealed value that does not open with this key (the secret key
// changed since the row was written, or the row was altered).
var ErrUnseal = errors.New("a sealed payload value does not open with the service's key")

// Unseal returns body with every sealed value replaced by its plain string, as the
// webhook receives it. A body without sealed values is returned as it is.
func (s *Sealer) Unseal(body []byte) ([]byte, error) {
	var failed error
	out := sealedValue.ReplaceAllFunc(body, func(m []byte) []byte {
		raw, err := base64.RawURLEncoding.DecodeString(string(sealedValue.FindSubmatch(m)[1]))
		n := s.aead.NonceSize()
		if err != nil || len(raw) < n {
			failed = ErrUnseal
			return m
		}
		plain, err := s.aead.Open(nil, raw[:n], raw[n:], sealAAD)
		if err != nil {
			failed = ErrUnseal
			return m
		}
		var q bytes.Buffer
		enc := json.NewEncoder(&q)
		enc.SetEscapeHTML(false) // as encode writes the payloads
		_ = enc.Encode(string(plain))
		return bytes.TrimRight(q.Bytes(), "\n")
	})
	if failed != nil {
		return nil, failed
	}
	return out, nil
}

// HasSealed reports whether body holds a sealed value.
func HasSealed(body []byte) bool { return sealedValue.Match(body) }
