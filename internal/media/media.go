// Package media keeps the service's uploaded files (photos of vehicles,
// docs/photos.md) behind one small interface, Store, with two implementations: a local
// directory (the default) and S3-compatible object storage (for several
// instances). It also turns an uploaded image into the renditions that are kept
// (process.go). It knows nothing of reservations: the operations (internal/booking)
// decide what is stored, under which key, and who may read it.
package media

import (
	"context"
	"errors"
	"io"
)

// ErrNotFound is returned by Get for a key that holds nothing.
var ErrNotFound = errors.New("media: not found")

// Store holds blobs by key. Keys are chosen by the service (letters, digits, '/',
// '-', '_' and '.'), never by a client. Delete of a missing key is not an error, so
// that a retried clean-up always completes.
type Store interface {
	Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error
	Get(ctx context.Context, key string) (io.ReadCloser, error)
	Delete(ctx context.Context, key string) error
}

// validKey refuses keys that could leave the store's namespace (".." segments,
// absolute paths) or that hold other characters than the service uses.
func validKey(key string) bool {
	if key == "" || len(key) > 300 || key[0] == '/' || key[len(key)-1] == '/' {
		return false
	}
	prev := byte('/')
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_':
		case c == '.':
			if prev == '/' || prev == '.' { // no "." or ".." segments, no hidden names
				return false
			}
		case c == '/':
			if prev == '/' {
				return false
			}
		default:
			return false
		}
		prev = c
	}
	return true
}

var errBadKey = errors.New("media: invalid key")
