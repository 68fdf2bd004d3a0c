package pricing_test

import (
	"testing"

	"parking/internal/pricing"
)

func TestOfferedTypes(t *testing.T) {
	names := func(cs []pricing.Coefficient) (out []string) {
		for _, c := range cs {
			out = append(out, c.VehicleType)
		}
		return out
	}
	seed := pricing.Default().Coefficients
	got := names(pricing.OfferedTypes(seed, ""))
	for _, n := range got {
		if n == "COCHE" || n == "MOTO" {
			t.Errorf("offered %v: the synonym %s repeats its kind", got, n)
		}
	}
	if len(got) != len(seed)-2 {
		t.Errorf("offered %v of %d", got, len(seed))
	}
	if got := names(pricing.OfferedTypes(seed, "MOTO")); len(got) != len(seed)-1 {
		t.Errorf("a stored MOTO is offered: %v", got)
	}
	odd := []pricing.Coefficient{{VehicleType: "TURISMO", Multiplier: 10000}, {VehicleType: "COCHE", Multiplier: 11000}}
	if got := names(pricing.OfferedTypes(odd, "")); len(got) != 2 {
		t.Errorf("a synonym priced differently is its own kind: %v", got)
	}
}
