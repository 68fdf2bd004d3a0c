package arrival_test

import (
	"bytes"
	"image/png"
	"testing"

	"parking/internal/arrival"
)

func TestURLs(t *testing.T) {
	if got := arrival.URL("https://p.example/", "K7Q2M9XD"); got != "https://p.example/r/K7Q2-M9XD" {
		t.Errorf("URL = %q", got)
	}
	if got := arrival.QRURL("https://p.example", "K7Q2M9XD"); got != "https://p.example/r/K7Q2-M9XD/qr.png" {
		t.Errorf("QRURL = %q", got)
	}
	b, err := arrival.QRPNG("https://p.example", "K7Q2M9XD")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if img.Bounds().Dx() != arrival.QRSize {
		t.Errorf("side %d, want %d", img.Bounds().Dx(), arrival.QRSize)
	}
}
