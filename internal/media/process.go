package media

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // decoders for image.DecodeConfig and image.Decode
	_ "image/png"
	"io"
	"runtime/debug"

	"github.com/disintegration/imaging"
	_ "golang.org/x/image/webp"

	"parking/internal/fault"
)

// Limits of an uploaded photo (docs/photos.md). MaxUpload is the size of one file as
// sent; MaxPixels and MaxSide bound the decoded image, checked from the header
// before decoding, so that a small file cannot claim gigabytes of memory (a
// decompression bomb). 50 megapixels covers every phone camera.
const (
	MaxUpload = 15 << 20
	MaxPixels = 50_000_000
	MaxSide   = 12_000
)

// Sizes of the kept renditions (long side, in pixels; smaller images are not
// enlarged) and their JPEG quality. The original is not kept: it carries the
// camera's metadata (location included).
const (
	LargeSide  = 1600
	ThumbSide  = 320
	jpegQualty = 82
)

// Kind is an accepted image format, read from the file's first bytes.
type Kind string

const (
	JPEG Kind = "image/jpeg"
	PNG  Kind = "image/png"
	WebP Kind = "image/webp"
)

// Sniff tells the format of an image from its first bytes (at least 12), not from
// its name or declared type: JPEG (FF D8 FF), PNG (its 8-byte signature) or WebP
// (a RIFF container of form WEBP, which http.DetectContentType does not know).
func Sniff(head []byte) (Kind, bool) {
	switch {
	case len(head) >= 3 && head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF:
		return JPEG, true
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return PNG, true
	case len(head) >= 12 && string(head[0:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return WebP, true
	}
	return "", false
}

// Errors of Process, for the caller to turn into its own message.
var (
	ErrFormat   = errors.New("not a JPEG, PNG or WebP image")
	ErrDecode   = errors.New("the image cannot be read")
	ErrTooLarge = errors.New("the image has too many pixels")
	// ErrTooHeavy: within the pixel limits, but its kind (a progressive or RGB JPEG,
	// a 16-bit or RGBA PNG) would need more memory to decode than the budget
	// (decode.go). It also matches ErrTooLarge.
	ErrTooHeavy = fmt.Errorf("%w for its kind: it needs too much memory to decode", ErrTooLarge)
	// ErrBusy: the request ended (its context was cancelled or timed out) while its
	// image waited for the others being decoded. It comes inside a fault of kind
	// Unavailable (503, "try again in a moment"), wrapping the context's error too.
	ErrBusy = errors.New("the server is busy decoding other images")
)

// Processed is an uploaded image made ready to keep: the reduced copy and the
// thumbnail, both JPEG, upright (EXIF orientation applied) and without any
// metadata (re-encoded from pixels, so no EXIF, GPS or maker notes survive).
type Processed struct {
	Kind          Kind // the format it was sent in
	Width, Height int  // of the reduced copy
	Large, Thumb  []byte
}

// Process is ProcessContext without a request to end the wait for a decode.
func Process(r io.ReadSeeker) (Processed, error) {
	return ProcessContext(context.Background(), r)
}

// ProcessContext reads an uploaded image from r (from its start): sniffs its format,
// checks its dimensions and the memory its decoding needs from the header, waits
// for room among the decodes in progress (docs/performance.md#photos), decodes it,
// reduces it, applies the EXIF orientation to the reduced copy and encodes the two
// renditions. When ctx ends while it waits, it returns an Unavailable fault
// wrapping ErrBusy and ctx's error, without decoding.
func ProcessContext(ctx context.Context, r io.ReadSeeker) (Processed, error) {
	var out Processed
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return out, err
	}
	head := make([]byte, 16)
	n, _ := io.ReadFull(r, head)
	kind, ok := Sniff(head[:n])
	if !ok {
		return out, ErrFormat
	}
	out.Kind = kind
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return out, err
	}
	cfg, _, err := image.DecodeConfig(r)
	if err != nil {
		return out, fmt.Errorf("%w: %v", ErrDecode, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return out, ErrDecode
	}
	if cfg.Width > MaxSide || cfg.Height > MaxSide || int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return out, fmt.Errorf("%w: %d×%d", ErrTooLarge, cfg.Width, cfg.Height)
	}
	h, err := readHeader(r, kind)
	if err != nil {
		return out, err
	}
	cost := decodeCost(kind, cfg, h)
	if cost > decodeBudget {
		return out, fmt.Errorf("%w: %d×%d needs %d MiB, more than %d MiB", ErrTooHeavy, cfg.Width, cfg.Height, cost>>20, decodeBudget>>20)
	}
	release, err := decodes.acquire(ctx, cost)
	if err != nil {
		return out, &fault.Error{Kind: fault.Unavailable, Message: fault.MsgUnavailable, Err: fmt.Errorf("%w: %w", ErrBusy, err)}
	}
	defer release()
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return out, err
	}
	large, err := reduce(r)
	if err != nil {
		return out, err
	}
	// The full image is garbage now. The service runs the collector seldom
	// (GOGC=800 up to a 256 MiB soft limit, cmd/parking/gc.go), so unless a cycle
	// runs now each photo's tens of megabytes pile up until the heap nears that
	// limit (311 MB at the peak without it). A plain collection leaves the freed
	// pages resident, and the next decode's block, when it lands elsewhere in the
	// heap, adds its whole size (a 50-megapixel photo: 148 MB at the peak, 222 MB
	// in two runs of eight); returning them keeps the process at what the decodes
	// in progress hold, for page faults when the next decode touches its memory:
	// ~5% of a 50-megapixel photo's processor time, nothing measurable at 12
	// (docs/performance.md#photos).
	debug.FreeOSMemory()
	large = orient(large, h.orientation)
	thumb := imaging.Fit(large, ThumbSide, ThumbSide, imaging.Lanczos)
	b := large.Bounds()
	out.Width, out.Height = b.Dx(), b.Dy()
	if out.Large, err = encode(large); err != nil {
		return out, err
	}
	if out.Thumb, err = encode(thumb); err != nil {
		return out, err
	}
	return out, nil
}

// reduce decodes the image of r and returns its reduced copy (at most LargeSide on
// each side, not yet oriented: the box is square, so orienting after reducing gives
// the same picture as before, for a fraction of the work and memory). The full
// image is not referenced once it returns.
func reduce(r io.Reader) (*image.NRGBA, error) {
	img, _, err := image.Decode(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDecode, err)
	}
	return imaging.Fit(img, LargeSide, LargeSide, imaging.Lanczos), nil
}

func encode(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := imaging.Encode(&buf, img, imaging.JPEG, imaging.JPEGQuality(jpegQualty)); err != nil {
		return nil, fmt.Errorf("encode photo: %w", err)
	}
	return buf.Bytes(), nil
}
