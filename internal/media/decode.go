package media

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"runtime"
	"sync"

	"github.com/disintegration/imaging"
)

// The memory of decoding (docs/performance.md#photos). A decoded photo lives whole
// in memory: a 12-megapixel phone JPEG (4000×3000, 4:2:0) is 18 MB of pixels, and
// reducing it holds another 29 MB (imaging's first pass, 1600×3000 RGBA, and the
// 1600×1200 copy; what follows the collection after it reuses that memory). Two
// staff members sending twenty photos each must fit a server's 200 MB, so the
// decodes in progress are bounded twice:
//
//   - by memory: each decode holds its estimated cost (decodeCost) of decodeBudget
//     while it runs, and an image whose cost alone is over the budget is refused
//     from its header, like a decompression bomb. 128 MiB (134 MB): two 12-megapixel
//     photos at once (2 × 47 MB = 94 MB), or one 50-megapixel 4:2:0 JPEG beside
//     nothing else of that size (8160×6120: 75 MB of pixels + 49 MB to reduce =
//     124 MB; 12000×4166: 107 MB). With the service's own ~40 MB: 40 + 134 =
//     174 MB, under 200 (measured: 156–166 MB for two twenty-photo uploads at
//     once, 148–151 MB for 50-megapixel photos). What the budget refuses has 50 megapixels or fewer but
//     more bytes a pixel: a 4:4:4 JPEG over ~30 megapixels, a PNG over ~23 (RGBA,
//     4 bytes a pixel), a progressive or RGB JPEG over ~13, a 16-bit PNG over ~12.
//   - by processor: at most GOMAXPROCS decodes at once (each takes at least
//     decodeBudget/GOMAXPROCS: 64 MiB on 2 cores, so a 12-megapixel photo counts
//     as one of two), since a decode keeps a core busy and more at once would
//     only hold more memory for the same throughput.
//
// A decode waits its turn in arrival order, and stops waiting when its request ends.
const decodeBudget int64 = 128 << 20

var decodes = newGate(decodeBudget, runtime.GOMAXPROCS(0))

// gate is a weighted semaphore served in arrival order: a large decode is not
// passed over indefinitely by small ones.
type gate struct {
	mu      sync.Mutex
	size    int64 // the budget
	least   int64 // the least any holder takes: size/slots
	free    int64
	waiting []*waiter
	onWait  func() // called when a decode starts waiting; tests only
}

type waiter struct {
	n     int64
	ready chan struct{} // closed when granted
}

func newGate(size int64, slots int) *gate {
	return &gate{size: size, least: size / int64(max(slots, 1)), free: size}
}

// acquire takes n of the budget (at least size/slots, at most size), waiting in
// arrival order until it is free or ctx ends; the release gives it back once.
func (g *gate) acquire(ctx context.Context, n int64) (release func(), err error) {
	n = min(max(n, g.least), g.size)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g.mu.Lock()
	if len(g.waiting) == 0 && g.free >= n {
		g.free -= n
		g.mu.Unlock()
		return g.releaser(n), nil
	}
	w := &waiter{n: n, ready: make(chan struct{})}
	g.waiting = append(g.waiting, w)
	onWait := g.onWait
	g.mu.Unlock()
	if onWait != nil {
		onWait()
	}
	select {
	case <-w.ready:
		return g.releaser(n), nil
	case <-ctx.Done():
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-w.ready: // granted meanwhile: give it back
		g.free += n
	default:
		for i, o := range g.waiting {
			if o == w {
				g.waiting = append(g.waiting[:i], g.waiting[i+1:]...)
				break
			}
		}
	}
	g.grant() // the next in line may fit now
	return nil, ctx.Err()
}

func (g *gate) releaser(n int64) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			g.free += n
			g.grant()
			g.mu.Unlock()
		})
	}
}

// grant lets in the waiters at the head of the line that fit; g.mu is held.
func (g *gate) grant() {
	for len(g.waiting) > 0 && g.waiting[0].n <= g.free {
		w := g.waiting[0]
		g.waiting = g.waiting[1:]
		g.free -= w.n
		close(w.ready)
	}
}

// header is what decodeCost and orient need beyond image.DecodeConfig.
type header struct {
	orientation int // EXIF orientation 1–8 of a JPEG; 0 when absent
	// JPEG frame: its components' sampling factors, progressive or not, and
	// whether image/jpeg turns it into RGBA (an RGB JPEG).
	comps       []jpegComp
	progressive bool
	rgb         bool
	interlaced  bool // PNG (Adam7): decoded pass by pass, then copied
}

type jpegComp struct {
	id, h, v int
}

// readHeader reads the header fields of the image in r (from its start) that the
// cost and orientation need; DecodeConfig has already accepted the header.
func readHeader(r io.ReadSeeker, kind Kind) (header, error) {
	var h header
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return h, err
	}
	switch kind {
	case JPEG:
		if err := h.readJPEG(bufio.NewReaderSize(r, 4096)); err != nil {
			return h, fmt.Errorf("%w: %v", ErrDecode, err)
		}
	case PNG:
		// The IHDR chunk comes first: signature (8), length (4), "IHDR" (4), width,
		// height (4 each), bit depth, colour type, compression, filter, interlace.
		var b [29]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return h, fmt.Errorf("%w: %v", ErrDecode, err)
		}
		h.interlaced = b[28] != 0
	}
	return h, nil
}

// readJPEG reads the markers up to the frame (SOFn): the first APP1 for the EXIF
// orientation (where imaging's auto-orientation looks), APP14 for Adobe's colour
// transform, and the frame's components.
func (h *header) readJPEG(r *bufio.Reader) error {
	var soi [2]byte
	if _, err := io.ReadFull(r, soi[:]); err != nil {
		return err
	}
	adobe, app1Seen := -1, false
	for {
		c, err := r.ReadByte()
		if err != nil {
			return err
		}
		if c != 0xFF {
			return errors.New("marker expected")
		}
		m, err := r.ReadByte()
		for err == nil && m == 0xFF { // fill bytes
			m, err = r.ReadByte()
		}
		if err != nil {
			return err
		}
		if m == 0xD8 || m == 0x01 || (m >= 0xD0 && m <= 0xD7) { // no length
			continue
		}
		var l [2]byte
		if _, err := io.ReadFull(r, l[:]); err != nil {
			return err
		}
		n := int(binary.BigEndian.Uint16(l[:])) - 2
		if n < 0 {
			return errors.New("bad segment length")
		}
		switch {
		case m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC:
			b := make([]byte, n)
			if _, err := io.ReadFull(r, b); err != nil {
				return err
			}
			if len(b) < 6 || len(b) < 6+3*int(b[5]) {
				return errors.New("short frame header")
			}
			h.progressive = m == 0xC2 || m == 0xC6 || m == 0xCA || m == 0xCE
			for i := range int(b[5]) {
				c := b[6+3*i:]
				h.comps = append(h.comps, jpegComp{id: int(c[0]), h: max(int(c[1]>>4), 1), v: max(int(c[1]&15), 1)})
			}
			// image/jpeg's isRGB: Adobe's transform 0, or else components named R, G, B.
			if len(h.comps) == 3 {
				if adobe >= 0 {
					h.rgb = adobe == 0
				} else {
					h.rgb = h.comps[0].id == 'R' && h.comps[1].id == 'G' && h.comps[2].id == 'B'
				}
			}
			return nil
		case m == 0xE1 && !app1Seen, m == 0xEE:
			b := make([]byte, n)
			if _, err := io.ReadFull(r, b); err != nil {
				return err
			}
			if m == 0xE1 {
				app1Seen = true
				h.orientation = exifOrientation(b)
			} else if len(b) >= 12 && string(b[:5]) == "Adobe" {
				adobe = int(b[11])
			}
		default:
			if _, err := r.Discard(n); err != nil {
				return err
			}
		}
	}
}

// exifOrientation reads the Orientation tag (0x0112) of IFD0 in an APP1 segment's
// payload; 0 when there is none or it is not 1–8.
func exifOrientation(b []byte) int {
	if len(b) < 14 || string(b[:6]) != "Exif\x00\x00" {
		return 0
	}
	t := b[6:]
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	off := int64(bo.Uint32(t[4:8]))
	if off < 8 || off+2 > int64(len(t)) {
		return 0
	}
	count := int64(bo.Uint16(t[off:]))
	for i := range count {
		e := off + 2 + 12*i
		if e+12 > int64(len(t)) {
			return 0
		}
		if bo.Uint16(t[e:]) == 0x0112 {
			if v := int(bo.Uint16(t[e+8:])); v >= 1 && v <= 8 {
				return v
			}
			return 0
		}
	}
	return 0
}

// orient turns the reduced copy upright by its EXIF orientation, as imaging's
// auto-orientation does to the full image.
func orient(img *image.NRGBA, o int) *image.NRGBA {
	if turn, ok := orientations[o]; ok {
		return turn(img)
	}
	return img
}

// orientations are EXIF's orientations 2 to 8 as the turn that makes them upright
// (1, the default, needs none).
var orientations = map[int]func(image.Image) *image.NRGBA{
	2: imaging.FlipH, 3: imaging.Rotate180, 4: imaging.FlipV, 5: imaging.Transpose,
	6: imaging.Rotate270, 7: imaging.Transverse, 8: imaging.Rotate90,
}

// decodeCost estimates the bytes a decode of the image holds at its peak, just
// before the collection that follows reducing it: the decoded pixels as its
// decoder allocates them, imaging's first pass (the target width × the source
// height in RGBA), the reduced copy, and 2 MiB for the rest (resampling weights,
// the thumbnail, the encoded files; the oriented twin reuses collected memory).
func decodeCost(kind Kind, cfg image.Config, h header) int64 {
	w, ht := int64(cfg.Width), int64(cfg.Height)
	px := w * ht
	var pixels int64
	switch kind {
	case JPEG:
		pixels = jpegCost(w, ht, h)
	case PNG:
		pixels = px * int64(pngBytesPerPixel(cfg.ColorModel))
		if h.interlaced {
			pixels *= 2 // the passes, then the whole image
		}
	case WebP:
		switch cfg.ColorModel {
		case color.YCbCrModel: // lossy, 4:2:0
			pixels = px * 3 / 2
		case color.NYCbCrAModel: // lossy with alpha
			pixels = px * 5 / 2
		default: // lossless: ARGB words, then RGBA
			pixels = px * 8
		}
	}
	dw, dh := fitSize(cfg.Width, cfg.Height, LargeSide)
	work := 4*int64(dw)*ht + 4*int64(dw)*int64(dh) + 2<<20
	return pixels + work
}

// jpegCost is what image/jpeg allocates for a w×h frame: each component's
// samples (whole MCUs), 4 bytes more a sample when progressive (the coefficients
// are kept until the last scan), and an RGBA or CMYK copy for RGB and four-
// component frames.
func jpegCost(w, h int64, hd header) int64 {
	if len(hd.comps) == 0 { // not read: four full components, progressive, then CMYK
		return w * h * (4*(1+4) + 4)
	}
	var samples int64
	if len(hd.comps) == 1 {
		samples = (w + 7) / 8 * 8 * ((h + 7) / 8 * 8)
	} else {
		hmax, vmax := 1, 1
		for _, c := range hd.comps {
			hmax, vmax = max(hmax, c.h), max(vmax, c.v)
		}
		mcuCols := (w + int64(8*hmax) - 1) / int64(8*hmax)
		mcuRows := (h + int64(8*vmax) - 1) / int64(8*vmax)
		for _, c := range hd.comps {
			samples += 8 * int64(c.h) * mcuCols * 8 * int64(c.v) * mcuRows
		}
	}
	cost := samples
	if hd.progressive {
		cost += 4 * samples
	}
	if len(hd.comps) == 4 || hd.rgb {
		cost += 4 * w * h
	}
	return cost
}

func pngBytesPerPixel(m color.Model) int {
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	switch m {
	case color.GrayModel:
		return 1
	case color.Gray16Model:
		return 2
	case color.RGBAModel, color.NRGBAModel:
		return 4
	}
	return 8 // 16-bit colour
}

// fitSize is the size imaging.Fit gives a w×h image in a side×side box.
func fitSize(w, h, side int) (int, int) {
	if w <= side && h <= side {
		return w, h
	}
	if w >= h {
		return side, max(h*side/w, 1)
	}
	return max(w*side/h, 1), side
}
