package receipt

import (
	"sort"

	"parking/internal/money"
)

// VAT arithmetic of a receipt (docs/receipts.md#the-vat-arithmetic: prices include VAT; base and VAT exact
// to the cent, the lines adding up to the totals).
//
// The rule, applied once per receipt:
//
//  1. total  = the sum of the lines' VAT-inclusive amounts (what was charged);
//  2. base   = total × 10000 / (10000 + rate), rounded half away from zero to the
//     cent (docs/pricing.md#money); VAT = total − base. The totals are what an accountant
//     computes from the amount charged, so the receipt's tax figure never drifts
//     by the number of lines.
//  3. each line's exact base, line × 10000 / (10000 + rate), is cut to the cent
//     below, and the cents still missing to reach the total base go, one each, to
//     the lines with the largest cut-off fractions (ties: the earlier line):
//     largest-remainder allocation. Every line's base is its exact base rounded
//     down or up, its VAT is the line less its base, and both columns add up to
//     the totals exactly.
//
// rate is in basis points: 2100 is 21 %.

// Part is an amount charged split into taxable base and VAT: Total = Base + VAT.
type Part struct {
	Total, Base, VAT money.Cents
}

// BaseOf is the taxable base inside a VAT-inclusive amount, rounded half away
// from zero to the cent.
func BaseOf(total money.Cents, rate int) money.Cents {
	den := int64(10_000 + rate)
	num := int64(total) * 10_000
	q, r := num/den, num%den
	if r < 0 {
		r = -r
	}
	if 2*r >= den {
		if num < 0 {
			q--
		} else {
			q++
		}
	}
	return money.Cents(q)
}

// Split splits each VAT-inclusive line amount into base and VAT by the rule above,
// and returns the parts and their totals. Lines are never negative in practice
// (the stay is the price rule's base amount); with a non-negative total the rule
// holds for them too.
func Split(amounts []money.Cents, rate int) ([]Part, Part) {
	den := int64(10_000 + rate)
	parts := make([]Part, len(amounts))
	rems := make([]int64, len(amounts))
	var total, floors money.Cents
	for i, a := range amounts {
		num := int64(a) * 10_000
		q, r := num/den, num%den
		if r < 0 { // floor, not truncation, should a line ever be negative
			q, r = q-1, r+den
		}
		parts[i] = Part{Total: a, Base: money.Cents(q)}
		rems[i] = r
		total += a
		floors += parts[i].Base
	}
	sum := Part{Total: total, Base: BaseOf(total, rate)}
	sum.VAT = sum.Total - sum.Base
	// The cents the floors lack: between 0 and the number of lines with a non-zero
	// fraction, since the total's exact base is the floors plus those fractions.
	missing := int64(sum.Base - floors)
	order := make([]int, len(amounts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rems[order[a]] > rems[order[b]] })
	for k := 0; k < len(order) && int64(k) < missing; k++ {
		parts[order[k]].Base++
	}
	for i := range parts {
		parts[i].VAT = parts[i].Total - parts[i].Base
	}
	return parts, sum
}
