package input_test

import (
	"errors"
	"testing"

	"parking/internal/fault"
	"parking/internal/input"
	"parking/internal/reservation"
)

// A check-out's payment method: the two methods, spaces around them ignored; blank is
// missing (the field named), anything else refused with its value.
func TestPaymentMethod(t *testing.T) {
	for in, want := range map[string]reservation.PaymentMethod{"EFECTIVO": reservation.Cash, " TARJETA\t": reservation.Card} {
		if got, err := input.PaymentMethod("paymentMethod", in); err != nil || got != want {
			t.Errorf("PaymentMethod(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, code := range map[string]string{"": "err.booking.payment_method_required", "  ": "err.booking.payment_method_required",
		"tarjeta": "err.booking.payment_method", "BIZUM": "err.booking.payment_method"} {
		_, err := input.PaymentMethod("paymentMethod", in)
		var f *fault.Error
		if !errors.As(err, &f) || f.Kind != fault.Invalid || f.Code != code {
			t.Errorf("PaymentMethod(%q): %v, want the refusal %s", in, err, code)
		}
	}
	if _, err := input.PaymentMethod("paymentMethod", ""); len(fault.Fields(err)) != 1 || fault.Fields(err)[0] != "paymentMethod" {
		t.Errorf("a missing method names the fields %v, want [paymentMethod]", fault.Fields(err))
	}
}
