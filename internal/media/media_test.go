package media_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"parking/internal/media"
	"parking/internal/media/mediatest"
)

// The format is read from the bytes, never the name: JPEG, PNG and WebP (a RIFF
// container that http.DetectContentType does not know) pass; anything else not.
func TestSniff(t *testing.T) {
	for _, c := range []struct {
		name string
		head []byte
		want media.Kind
		ok   bool
	}{
		{"jpeg", mediatest.JPEG(t, 8, 8, 0, false), media.JPEG, true},
		{"png", mediatest.PNG(t, 8, 8), media.PNG, true},
		{"webp", mediatest.WebP(), media.WebP, true},
		{"riff wave", []byte("RIFF\x10\x00\x00\x00WAVEfmt "), "", false},
		{"gif", []byte("GIF89a\x01\x00\x01\x00"), "", false},
		{"text", []byte("<svg xmlns="), "", false},
		{"empty", nil, "", false},
	} {
		got, ok := media.Sniff(c.head)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: Sniff = %q %v, want %q %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// The EXIF orientation is applied (6: turned 90° clockwise, so the left half —
// red — ends on top) and the kept copies carry no metadata at all: no EXIF
// segment, no GPS block.
func TestProcessOrientsAndDropsMetadata(t *testing.T) {
	src := mediatest.JPEG(t, 400, 200, 6, true)
	if !bytes.Contains(src, []byte(mediatest.GPSMark)) {
		t.Fatal("the test picture lacks its GPS block")
	}
	p, err := media.Process(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if p.Kind != media.JPEG || p.Width != 200 || p.Height != 400 {
		t.Errorf("processed %s %d×%d, want image/jpeg 200×400 (turned upright)", p.Kind, p.Width, p.Height)
	}
	for name, b := range map[string][]byte{"large": p.Large, "thumb": p.Thumb} {
		if bytes.Contains(b, []byte("Exif")) || bytes.Contains(b, []byte(mediatest.GPSMark)) || bytes.Contains(b, []byte{0xFF, 0xE1}) {
			t.Errorf("%s keeps metadata", name)
		}
		img, _, err := image.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		bd := img.Bounds()
		top, bottom := img.At(bd.Dx()/2, bd.Dy()/4), img.At(bd.Dx()/2, 3*bd.Dy()/4)
		if !reddish(top) || reddish(bottom) {
			t.Errorf("%s: top %v bottom %v, want red on top (orientation 6 applied)", name, top, bottom)
		}
	}
	thumb, _, _ := image.DecodeConfig(bytes.NewReader(p.Thumb))
	if thumb.Height != media.ThumbSide || thumb.Width != media.ThumbSide/2 {
		t.Errorf("thumbnail %d×%d, want %d×%d", thumb.Width, thumb.Height, media.ThumbSide/2, media.ThumbSide)
	}
}

func reddish(c interface{ RGBA() (r, g, b, a uint32) }) bool {
	r, _, b, _ := c.RGBA()
	return r > 2*b
}

// A large picture is reduced to LargeSide on its long side; PNG and WebP are
// accepted and kept as JPEG.
func TestProcessReducesAndConverts(t *testing.T) {
	p, err := media.Process(bytes.NewReader(mediatest.PNG(t, 2400, 1200)))
	if err != nil {
		t.Fatal(err)
	}
	if p.Kind != media.PNG || p.Width != media.LargeSide || p.Height != media.LargeSide/2 {
		t.Errorf("png: %s %d×%d", p.Kind, p.Width, p.Height)
	}
	w, err := media.Process(bytes.NewReader(mediatest.WebP()))
	if err != nil || w.Kind != media.WebP || len(w.Large) == 0 {
		t.Fatalf("webp: %v %s", err, w.Kind)
	}
	if _, f, err := image.DecodeConfig(bytes.NewReader(w.Large)); err != nil || f != "jpeg" {
		t.Errorf("webp kept as %q, %v", f, err)
	}
}

// Refusals: not an image, an image that does not decode, and a decompression bomb
// (a header claiming 20000×20000 pixels) refused from the header alone.
func TestProcessRefuses(t *testing.T) {
	if _, err := media.Process(strings.NewReader("%PDF-1.7 not an image")); !errors.Is(err, media.ErrFormat) {
		t.Errorf("pdf: %v", err)
	}
	broken := mediatest.JPEG(t, 64, 64, 0, false)[:200]
	if _, err := media.Process(bytes.NewReader(broken)); !errors.Is(err, media.ErrDecode) {
		t.Errorf("truncated jpeg: %v", err)
	}
	bomb := mediatest.PNG(t, 4, 4)
	// IHDR starts at byte 8: length(4) "IHDR"(4) width(4) height(4) …, CRC after 13 bytes of data.
	binary.BigEndian.PutUint32(bomb[16:], 20000)
	binary.BigEndian.PutUint32(bomb[20:], 20000)
	binary.BigEndian.PutUint32(bomb[29:], crc32.ChecksumIEEE(bomb[12:29]))
	if _, err := media.Process(bytes.NewReader(bomb)); !errors.Is(err, media.ErrTooLarge) {
		t.Errorf("bomb: %v", err)
	}
}

// Both stores keep, return and delete blobs; a missing key is ErrNotFound on Get
// and not an error on Delete; keys that could leave the store are refused.
func TestStores(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	local, err := media.NewLocal(filepath.Join(dir, "media"))
	if err != nil {
		t.Fatal(err)
	}
	s3, err := media.NewS3(ctx, mediatest.S3(t, "photos"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := media.NewS3(ctx, media.S3Config{Endpoint: mediatest.S3(t, "other").Endpoint, Bucket: "missing", Insecure: true}); err == nil {
		t.Error("S3 with a missing bucket accepted")
	}
	for name, st := range map[string]media.Store{"local": local, "s3": s3} {
		t.Run(name, func(t *testing.T) {
			if err := st.Put(ctx, "photos/abc/large.jpg", strings.NewReader("data"), 4, "image/jpeg"); err != nil {
				t.Fatal(err)
			}
			rc, err := st.Get(ctx, "photos/abc/large.jpg")
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(rc)
			rc.Close()
			if string(b) != "data" {
				t.Errorf("got %q", b)
			}
			if _, err := st.Get(ctx, "photos/none/large.jpg"); !errors.Is(err, media.ErrNotFound) {
				t.Errorf("missing: %v", err)
			}
			if err := st.Delete(ctx, "photos/abc/large.jpg"); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Get(ctx, "photos/abc/large.jpg"); !errors.Is(err, media.ErrNotFound) {
				t.Errorf("after delete: %v", err)
			}
			if err := st.Delete(ctx, "photos/abc/large.jpg"); err != nil {
				t.Errorf("second delete: %v", err)
			}
			for _, bad := range []string{"../x", "/etc/passwd", "a/../../b", "a//b", "a/.hidden", "a b"} {
				if err := st.Put(ctx, bad, strings.NewReader("x"), 1, ""); err == nil {
					t.Errorf("key %q accepted", bad)
				}
			}
		})
	}
	// The local store leaves no empty directories nor temporary files behind.
	entries, _ := os.ReadDir(filepath.Join(dir, "media"))
	if len(entries) != 0 {
		t.Errorf("left in the directory: %v", entries)
	}
}
