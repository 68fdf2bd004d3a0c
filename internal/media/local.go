package media

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Local is a Store in a directory of the local file system (PARKING_MEDIA_DIR).
// Each blob is one file, written to a temporary name and renamed into place, so
// that a reader never sees half a file.
type Local struct {
	dir string
}

// NewLocal returns a store in dir, creating it (mode 0700: the photos are personal
// data) when it does not exist.
func NewLocal(dir string) (*Local, error) {
	if dir == "" {
		return nil, errors.New("media: empty directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("media directory %s: %w", dir, err)
	}
	return &Local{dir: dir}, nil
}

// Dir is the store's directory.
func (l *Local) Dir() string { return l.dir }

func (l *Local) path(key string) (string, error) {
	if !validKey(key) {
		return "", errBadKey
	}
	return filepath.Join(l.dir, filepath.FromSlash(key)), nil
}

// Put writes the blob under key, replacing any earlier one.
func (l *Local) Put(ctx context.Context, key string, r io.Reader, _ int64, _ string) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("media put %s: %w", key, err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".put-*")
	if err != nil {
		return fmt.Errorf("media put %s: %w", key, err)
	}
	tmp := f.Name()
	_, err = io.Copy(f, r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = ctx.Err()
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("media put %s: %w", key, err)
	}
	return nil
}

// Get opens the blob under key; ErrNotFound when there is none.
func (l *Local) Get(_ context.Context, key string) (io.ReadCloser, error) {
	p, err := l.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("media get %s: %w", key, err)
	}
	return f, nil
}

// Delete removes the blob under key, and its directory once empty.
func (l *Local) Delete(_ context.Context, key string) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("media delete %s: %w", key, err)
	}
	// Remove the emptied parent directories up to the store's root (a failure
	// means another blob is still there).
	for d := filepath.Dir(p); d != l.dir && len(d) > len(l.dir); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			break
		}
	}
	return nil
}
