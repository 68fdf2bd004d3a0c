package input

import (
	"strconv"
	"strings"

	"parking/internal/fault"
	"parking/internal/i18n"
)

// MaxPartnerReference is the longest partner reference (docs/partners.md#booking).
const MaxPartnerReference = 64

// PartnerReference reads a partner's own booking reference: 1 to 64 letters,
// digits, "-", "_" or "." (docs/partners.md#booking), kept as sent (case counts).
func PartnerReference(field, raw string) (string, error) {
	if raw == "" {
		return "", required(field)
	}
	if !ValidPartnerReference(raw) {
		return "", fault.Coded(fault.Invalid, "err.input.partner_reference", "Field", i18n.FieldName(field), "Max", MaxPartnerReference)
	}
	return raw, nil
}

// ValidPartnerReference reports whether raw has the partner reference's form.
func ValidPartnerReference(raw string) bool {
	if raw == "" || len(raw) > MaxPartnerReference {
		return false
	}
	for _, c := range raw {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
		if !ok {
			return false
		}
	}
	return true
}

// Percent reads a percentage from 0 to 100 with at most two decimals (a partner's
// commission, docs/partners.md#for-staff) as hundredths of a percent (0–10000).
func Percent(field, raw string) (int64, error) {
	bad := fault.Coded(fault.Invalid, "err.input.percent", "Field", i18n.FieldName(field))
	t := strings.TrimSpace(raw)
	if t == "" || t == "null" {
		return 0, required(field)
	}
	whole, frac, hasDot := strings.Cut(t, ".")
	if whole == "" || len(whole) > 3 || len(frac) > 2 || hasDot && frac == "" {
		return 0, bad
	}
	for _, c := range whole + frac {
		if c < '0' || c > '9' {
			return 0, bad
		}
	}
	w, _ := strconv.ParseInt(whole, 10, 64)
	f, _ := strconv.ParseInt((frac + "00")[:2], 10, 64)
	bp := w*100 + f
	if bp > 10000 {
		return 0, bad
	}
	return bp, nil
}

// PercentText writes hundredths of a percent as a decimal: 1250 → "12.5", 300 → "3".
func PercentText(bp int64) string {
	s := strconv.FormatInt(bp/100, 10)
	if f := bp % 100; f != 0 {
		s += strings.TrimRight("."+strconv.FormatInt(100+f, 10)[1:], "0")
	}
	return s
}
