package media

import (
	"context"
	"image"
	"io"
	"testing"
)

// DecodeBudget is the memory the decodes in progress may hold together.
const DecodeBudget = decodeBudget

// SetDecodeGate replaces, for the test, the gate of the decodes in progress with one
// of slots decodes; onWait is called each time a decode starts to wait its turn.
func SetDecodeGate(t testing.TB, slots int, onWait func()) {
	old := decodes
	decodes = newGate(decodeBudget, slots)
	decodes.onWait = onWait
	t.Cleanup(func() { decodes = old })
}

// HoldDecode takes the room of one decode of a small photo, as if one were in
// progress, until release is called.
func HoldDecode(t testing.TB) (release func()) {
	t.Helper()
	release, err := decodes.acquire(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	return release
}

// DecodeCost is the memory decoding the image of r is counted for.
func DecodeCost(r io.ReadSeeker) (int64, error) {
	head := make([]byte, 16)
	if _, err := io.ReadFull(r, head); err != nil {
		return 0, err
	}
	kind, _ := Sniff(head)
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	cfg, _, err := image.DecodeConfig(r)
	if err != nil {
		return 0, err
	}
	h, err := readHeader(r, kind)
	if err != nil {
		return 0, err
	}
	return decodeCost(kind, cfg, h), nil
}
