package input_test

import (
	"testing"

	"parking/internal/input"
)

func TestPercent(t *testing.T) {
	for raw, want := range map[string]int64{"0": 0, "12.5": 1250, "12.50": 1250, "100": 10000, "3": 300, "0.01": 1, "99.99": 9999} {
		got, err := input.Percent("commission_percent", raw)
		if err != nil || got != want {
			t.Errorf("Percent(%q) = %d, %v; want %d", raw, got, err, want)
		}
		if back, _ := input.Percent("x", input.PercentText(want)); back != want {
			t.Errorf("PercentText(%d) = %q reads back as %d", want, input.PercentText(want), back)
		}
	}
	for _, raw := range []string{"", "-1", "100.01", "101", "1.234", "abc", "1e2", "1.", ".5", "null"} {
		if _, err := input.Percent("commission_percent", raw); err == nil {
			t.Errorf("Percent(%q) accepted", raw)
		}
	}
}

func TestPartnerReference(t *testing.T) {
	for _, ok := range []string{"A", "abc-123_X.9", string(make64('a'))} {
		if _, err := input.PartnerReference("partner_reference", ok); err != nil {
			t.Errorf("PartnerReference(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "a b", "ñ", "a/b", string(make64('a')) + "a", "x\n"} {
		if _, err := input.PartnerReference("partner_reference", bad); err == nil {
			t.Errorf("PartnerReference(%q) accepted", bad)
		}
	}
}

func make64(c byte) []byte {
	b := make([]byte, 64)
	for i := range b {
		b[i] = c
	}
	return b
}
