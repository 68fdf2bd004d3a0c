package pricing

import (
	"errors"
	"fmt"

	"parking/internal/fault"
)

// The price rule's failures as catalogue codes (docs/languages.md#messages-as-codes).
const (
	codeNoRate        = "err.pricing.no_rate"
	codeNoCoefficient = "err.pricing.no_coefficient"
	codeNotLoaded     = "err.pricing.not_loaded"
)

func (e *NoRateError) args() []any {
	name := e.Name
	if name == "" {
		name = fmt.Sprintf("%d", e.MainService)
	}
	return []any{"Service", name, "Days", e.Days}
}

func (e *NoCoefficientError) args() []any { return []any{"Type", e.VehicleType} }

// Fault is err, a failure of the price rule, as the refusal of an operation of
// kind k, said in its reader's language and keeping err as its cause: a missing
// rate or coefficient names the service and days or the type; missing pricing data
// is an internal error whatever k. Any other err is returned as it is.
func Fault(k fault.Kind, err error) error {
	var e *fault.Error
	var noRate *NoRateError
	var noCoef *NoCoefficientError
	switch {
	case errors.Is(err, ErrNotLoaded):
		e = fault.Coded(fault.Internal, codeNotLoaded)
	case errors.As(err, &noRate):
		e = fault.Coded(k, codeNoRate, noRate.args()...)
	case errors.As(err, &noCoef):
		e = fault.Coded(k, codeNoCoefficient, noCoef.args()...)
	default:
		return err
	}
	e.Err = err
	return e
}
