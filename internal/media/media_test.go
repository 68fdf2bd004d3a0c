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

	"github.com/disintegration/imaging"

	"parking/internal/fault"
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

// Every EXIF orientation (1–8) gives the picture imaging's auto-orientation gives
// the full image: the reduced copy is turned after reducing, in a square box.
func TestProcessOrientations(t *testing.T) {
	for o := 1; o <= 8; o++ {
		src := mediatest.JPEG(t, 40, 20, o, false)
		want, err := imaging.Decode(bytes.NewReader(src), imaging.AutoOrientation(true))
		if err != nil {
			t.Fatal(err)
		}
		p, err := media.Process(bytes.NewReader(src))
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := image.Decode(bytes.NewReader(p.Large))
		if err != nil {
			t.Fatal(err)
		}
		wb, gb := want.Bounds(), got.Bounds()
		if wb.Dx() != gb.Dx() || wb.Dy() != gb.Dy() {
			t.Errorf("orientation %d: %v, want %v", o, gb, wb)
			continue
		}
		for _, q := range [][2]int{{1, 1}, {3, 1}, {1, 3}, {3, 3}} {
			x, y := q[0]*wb.Dx()/4, q[1]*wb.Dy()/4
			if reddish(want.At(x, y)) != reddish(got.At(x, y)) {
				t.Errorf("orientation %d: at %d,%d %v, want %v", o, x, y, got.At(x, y), want.At(x, y))
			}
		}
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

// withFrame is JPEG b with its frame header (SOF0) turned into marker sof (0xC0
// baseline, 0xC2 progressive) claiming w×h pixels; the scans stay those of b, so
// only the header is believable.
func withFrame(t *testing.T, b []byte, sof byte, w, h int) []byte {
	t.Helper()
	b = append([]byte{}, b...)
	i := bytes.Index(b, []byte{0xFF, 0xC0})
	if i < 0 {
		t.Fatal("no SOF0 in the test JPEG")
	}
	b[i+1] = sof
	// FF C0, length (2), precision (1), height (2), width (2).
	binary.BigEndian.PutUint16(b[i+5:], uint16(h))
	binary.BigEndian.PutUint16(b[i+7:], uint16(w))
	return b
}

// pngHeader is a 4×4 PNG whose header claims w×h pixels of 16-bit RGBA.
func pngHeader(t *testing.T, w, h int) []byte {
	b := mediatest.PNG(t, 4, 4)
	// IHDR data starts at byte 16: width, height, bit depth, colour type, …; CRC at 29.
	binary.BigEndian.PutUint32(b[16:], uint32(w))
	binary.BigEndian.PutUint32(b[20:], uint32(h))
	b[24], b[25] = 16, 6
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

// Decoding is bounded by memory as well as pixels, from the header alone: a phone's
// 12-megapixel JPEG counts for less than half the budget (two staff members decode
// at once) and a 50-megapixel one fits it; images within 50 megapixels that would
// need more memory (progressive JPEG, 16-bit PNG) are refused before decoding.
func TestDecodeMemoryBound(t *testing.T) {
	small := mediatest.JPEG(t, 64, 48, 0, false)
	for _, c := range []struct {
		name string
		img  []byte
		max  int64
	}{
		{"12 MP phone photo", withFrame(t, small, 0xC0, 4000, 3000), media.DecodeBudget / 2},
		{"50 MP 4:3 phone photo", withFrame(t, small, 0xC0, 8160, 6120), media.DecodeBudget},
		{"50 MP panorama", withFrame(t, small, 0xC0, 12000, 4166), media.DecodeBudget},
	} {
		cost, err := media.DecodeCost(bytes.NewReader(c.img))
		if err != nil || cost > c.max {
			t.Errorf("%s: cost %d MiB, %v; want at most %d MiB", c.name, cost>>20, err, c.max>>20)
		}
		// Admitted: it gets as far as decoding, where the forged scans fail.
		if _, err := media.Process(bytes.NewReader(c.img)); !errors.Is(err, media.ErrDecode) {
			t.Errorf("%s: %v, want the decoding to be tried", c.name, err)
		}
	}
	for name, img := range map[string][]byte{
		"49 MP progressive JPEG": withFrame(t, small, 0xC2, 7000, 7000),
		"49 MP 16-bit PNG":       pngHeader(t, 7000, 7000),
	} {
		if _, err := media.Process(bytes.NewReader(img)); !errors.Is(err, media.ErrTooHeavy) {
			t.Errorf("%s: %v, want ErrTooHeavy from the header", name, err)
		}
	}
}

// With every slot of the decodes taken, one more decode waits its turn and goes
// on when a slot frees.
func TestDecodesWaitTheirTurn(t *testing.T) {
	waiting := make(chan struct{}, 1)
	media.SetDecodeGate(t, 2, func() { waiting <- struct{}{} })
	first, second := media.HoldDecode(t), media.HoldDecode(t)
	defer second()
	done := make(chan error, 1)
	go func() {
		_, err := media.ProcessContext(context.Background(), bytes.NewReader(mediatest.JPEG(t, 64, 48, 0, false)))
		done <- err
	}()
	select {
	case <-waiting:
	case err := <-done:
		t.Fatalf("a third decode ran beside two: %v", err)
	}
	select {
	case err := <-done:
		t.Fatalf("a third decode ran beside two: %v", err)
	default:
	}
	first()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// A decode waiting its turn stops when its request ends: an Unavailable fault (503,
// "try again in a moment") wrapping ErrBusy and the context's error, and its place
// in line is given up, so the next decode does not wait.
func TestDecodeWaitEndsWithTheRequest(t *testing.T) {
	waiting := make(chan struct{}, 1)
	media.SetDecodeGate(t, 1, func() { waiting <- struct{}{} })
	hold := media.HoldDecode(t)
	photo := mediatest.JPEG(t, 64, 48, 0, false)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := media.ProcessContext(ctx, bytes.NewReader(photo))
		done <- err
	}()
	select {
	case <-waiting:
	case err := <-done:
		t.Fatalf("a decode ran with the only slot taken: %v", err)
	}
	cancel()
	err := <-done
	if !errors.Is(err, media.ErrBusy) || !errors.Is(err, context.Canceled) || fault.KindOf(err) != fault.Unavailable {
		t.Fatalf("cancelled wait: %v (kind %v), want ErrBusy, context.Canceled, Unavailable", err, fault.KindOf(err))
	}
	// Already ended: refused without waiting, even with a free slot.
	hold()
	if _, err := media.ProcessContext(ctx, bytes.NewReader(photo)); !errors.Is(err, media.ErrBusy) {
		t.Errorf("ended request: %v", err)
	}
	select {
	case <-waiting:
		t.Error("a decode waited with the slot free")
	default:
	}
	if _, err := media.ProcessContext(context.Background(), bytes.NewReader(photo)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-waiting:
		t.Error("the slot was not given back")
	default:
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
