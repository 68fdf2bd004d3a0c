// Package mediatest builds test images (JPEG with an EXIF segment, PNG, WebP) and
// runs an S3-compatible server inside a test, for the photo tests.
package mediatest

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http/httptest"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"parking/internal/media"
)

// GPSMark is the text a JPEG made with gps=true carries in its GPS block
// (GPSMapDatum), to look for in what the service keeps.
const GPSMark = "PARKING-GPS-MARK"

// Red and Blue are the halves of the test pictures: the left half red, the right
// half blue, so that a rotation shows.
var (
	Red  = color.RGBA{220, 20, 20, 255}
	Blue = color.RGBA{20, 20, 220, 255}
)

func picture(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := Red
			if x >= w/2 {
				c = Blue
			}
			img.Set(x, y, c)
		}
	}
	return img
}

// JPEG is a w×h JPEG, left half red and right half blue, with an EXIF segment
// holding the orientation (1–8; 0: no EXIF at all) and, when gps is set, a GPS
// block with GPSLatitudeRef and GPSMapDatum = GPSMark.
func JPEG(t testing.TB, w, h, orientation int, gps bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, picture(w, h), &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if orientation == 0 {
		return b
	}
	tiff := exif(orientation, gps)
	app1 := []byte{0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(app1[2:], uint16(2+6+len(tiff)))
	app1 = append(app1, "Exif\x00\x00"...)
	app1 = append(app1, tiff...)
	out := append([]byte{}, b[:2]...) // SOI
	out = append(out, app1...)
	return append(out, b[2:]...)
}

// exif is a little-endian TIFF block: IFD0 with Orientation and (gps) a pointer to
// a GPS IFD with GPSLatitudeRef "N" and GPSMapDatum GPSMark.
func exif(orientation int, gps bool) []byte {
	le := binary.LittleEndian
	var b []byte
	b = append(b, 'I', 'I', 0x2A, 0)
	b = le.AppendUint32(b, 8)
	entry := func(tag, typ uint16, count, value uint32) {
		b = le.AppendUint16(b, tag)
		b = le.AppendUint16(b, typ)
		b = le.AppendUint32(b, count)
		b = le.AppendUint32(b, value)
	}
	n := uint16(1)
	if gps {
		n = 2
	}
	b = le.AppendUint16(b, n)
	entry(0x0112, 3, 1, uint32(orientation)) // SHORT, left-justified in the value
	gpsIFD := uint32(8 + 2 + 12*int(n) + 4)
	if gps {
		entry(0x8825, 4, 1, gpsIFD)
	}
	b = le.AppendUint32(b, 0)
	if gps {
		mark := GPSMark + "\x00"
		data := gpsIFD + 2 + 2*12 + 4
		b = le.AppendUint16(b, 2)
		entry(0x0001, 2, 2, uint32('N'))
		entry(0x0012, 2, uint32(len(mark)), data)
		b = le.AppendUint32(b, 0)
		b = append(b, mark...)
	}
	return b
}

// PNG is a w×h PNG, left half red and right half blue.
func PNG(t testing.TB, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, picture(w, h)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

//go:embed sample.webp
var webp []byte

// WebP is a small lossy WebP picture (from golang.org/x/image's test data).
func WebP() []byte { return append([]byte{}, webp...) }

// S3 runs an S3-compatible server (gofakes3, in memory) for the test's duration
// with bucket created, and returns the configuration to reach it.
func S3(t testing.TB, bucket string) media.S3Config {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	return media.S3Config{Endpoint: srv.Listener.Addr().String(), Bucket: bucket, AccessKey: "test", SecretKey: "test-secret",
		Region: "eu-south-2", Insecure: true}
}
