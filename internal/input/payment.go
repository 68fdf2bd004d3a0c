package input

import (
	"strings"

	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/reservation"
)

// PaymentMethod reads a check-out's payment method (docs/input-rules.md#other-identifiers):
// EFECTIVO or TARJETA, spaces around it ignored; a blank one is missing, anything else
// is refused with the value sent.
func PaymentMethod(field, raw string) (reservation.PaymentMethod, error) {
	if m, ok := reservation.ParsePaymentMethod(strings.TrimSpace(raw)); ok {
		return m, nil
	}
	if Blank(raw) {
		return "", fault.Coded(fault.Invalid, "err.booking.payment_method_required", "Field", i18n.FieldName(field))
	}
	return "", fault.Coded(fault.Invalid, "err.booking.payment_method", "Value", raw)
}
