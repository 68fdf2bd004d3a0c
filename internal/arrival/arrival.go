// Package arrival is what a customer needs to arrive (docs/manage-booking.md#arrival):
// the booking's QR code, which carries {PARKING_BASE_URL}/r/{reference} for staff
// to scan at the gate, and the address of the PNG the service serves of it.
package arrival

import (
	"fmt"
	"strings"

	qrcode "github.com/skip2/go-qrcode"

	"parking/internal/reservation"
)

// QRSize is the side of the QR code's PNG in pixels: large enough to scan from a
// phone's screen or a print.
const QRSize = 320

// URL is what the booking's QR code encodes: {base}/r/{reference}, the reference
// in its shown form (K7Q2-M9XD).
func URL(base, reference string) string {
	return strings.TrimRight(base, "/") + "/r/" + reservation.ShowReference(reference)
}

// QRPath is the path of the QR code's PNG on this service.
func QRPath(reference string) string {
	return "/r/" + reservation.ShowReference(reference) + "/qr.png"
}

// QRURL is the QR code's PNG as an absolute link (the notifications' qr_url).
func QRURL(base, reference string) string {
	return strings.TrimRight(base, "/") + QRPath(reference)
}

// QRPNG is the booking's QR code as a PNG. Error correction level M: a printed
// code with a crease or a cracked screen still reads.
func QRPNG(base, reference string) ([]byte, error) {
	png, err := qrcode.Encode(URL(base, reference), qrcode.Medium, QRSize)
	if err != nil {
		return nil, fmt.Errorf("QR code of booking %s: %w", reference, err)
	}
	return png, nil
}
