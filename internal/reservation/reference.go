package reservation

import (
	"crypto/rand"
	"strings"
)

// ReferenceAlphabet is Crockford's base32: digits and letters without I, L, O and
// U, so that a reference read aloud or copied by hand is not misread (docs/manage-booking.md#pages).
const ReferenceAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// ReferenceLength is the number of characters of a reference: 40 random bits, so
// that references cannot be guessed or counted (the numeric id stays the key).
const ReferenceLength = 8

// NewReference draws a reference from crypto/rand. It is unique only with the
// database's constraint: the store retries on a collision.
func NewReference() string {
	var b [ReferenceLength]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	out := make([]byte, ReferenceLength)
	for i, v := range b {
		out[i] = ReferenceAlphabet[v&31] // 256 is a multiple of 32: no bias
	}
	return string(out)
}

// ShowReference is a reference as people see it, grouped: K7Q2-M9XD. An empty
// reference stays empty.
func ShowReference(ref string) string {
	if len(ref) != ReferenceLength {
		return ref
	}
	return ref[:4] + "-" + ref[4:]
}

// IsReference reports whether s is a stored-form reference (8 characters of the
// alphabet, upper case, no dash).
func IsReference(s string) bool {
	if len(s) != ReferenceLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune(ReferenceAlphabet, rune(s[i])) {
			return false
		}
	}
	return true
}
