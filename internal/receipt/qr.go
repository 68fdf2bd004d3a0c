package receipt

import (
	"fmt"

	qrcode "github.com/skip2/go-qrcode"
)

// QRPNG is the receipt's QR code as a PNG of size pixels a side, carrying
// QRURL(base, r). The AEAT asks for error correction level M ("Características
// del QR y especificaciones del servicio de cotejo o remisión de facturas").
func QRPNG(base string, r Receipt, size int) ([]byte, error) {
	png, err := qrcode.Encode(QRURL(base, r), qrcode.Medium, size)
	if err != nil {
		return nil, fmt.Errorf("QR code of receipt %s: %w", r.Number, err)
	}
	return png, nil
}
