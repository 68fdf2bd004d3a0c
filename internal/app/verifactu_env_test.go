package app

import (
	"io"
	"strings"
	"testing"

	"parking/internal/receipt"
)

// PARKING_VERIFACTU_ENV picks the AEAT host the receipts' QR codes point to:
// test (the default) or production; anything else is refused.
func TestVerifactuEnv(t *testing.T) {
	for v, want := range map[string]string{"": receipt.QRHostTest, "test": receipt.QRHostTest, "production": receipt.QRHostProduction, "PRODUCTION": receipt.QRHostProduction} {
		vars := map[string]string{}
		if v != "" {
			vars["PARKING_VERIFACTU_ENV"] = v
		}
		c, err := LoadConfig(nil, env(vars), io.Discard)
		if err != nil || c.VerifactuQR != want {
			t.Errorf("PARKING_VERIFACTU_ENV=%q: %q, %v; want %q", v, c.VerifactuQR, err, want)
		}
	}
	if _, err := LoadConfig(nil, env(map[string]string{"PARKING_VERIFACTU_ENV": "prod"}), io.Discard); err == nil ||
		!strings.Contains(err.Error(), "PARKING_VERIFACTU_ENV") {
		t.Errorf("PARKING_VERIFACTU_ENV=prod: %v", err)
	}
}
