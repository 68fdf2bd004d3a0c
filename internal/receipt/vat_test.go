package receipt

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"parking/internal/money"
)

func TestSplitTable(t *testing.T) {
	cases := []struct {
		name    string
		amounts []money.Cents
		rate    int
		bases   []money.Cents
		base    money.Cents
	}{
		// 76 € at 21 %: total base round(6280.99) = 6281; floors 2975 + 1239 + 2066 =
		// 6280; the missing cent to the largest fraction (1500: .669).
		{"three lines", []money.Cents{3600, 1500, 2500}, 2100, []money.Cents{2975, 1240, 2066}, 6281},
		{"one line", []money.Cents{12100}, 2100, []money.Cents{10000}, 10000},
		{"a cent", []money.Cents{1}, 2100, []money.Cents{1}, 1},                  // 0.826 → 1
		{"zero rate", []money.Cents{999, 1}, 0, []money.Cents{999, 1}, 1000},     // base = total
		{"free extra", []money.Cents{1000, 0}, 2100, []money.Cents{826, 0}, 826}, // 826.45
		{"10.5 %", []money.Cents{1105, 1105}, 1050, []money.Cents{1000, 1000}, 2000},
		// Equal fractions: the earlier line gets the cent. 3 × 0.50 € at 21 %:
		// exact 41.32 each, total round(123.97) = 124, floors 123: one cent, line 1.
		// A negative line (a discount, should one ever be booked) is cut to the
		// cent below too: -500 → -413.22 → -414, +1 cent back from the remainder.
		{"negative line", []money.Cents{1210, -500}, 2100, []money.Cents{1000, -413}, 587},
		{"ties", []money.Cents{50, 50, 50}, 2100, []money.Cents{42, 41, 41}, 124},
	}
	for _, c := range cases {
		parts, sum := Split(c.amounts, c.rate)
		for i, p := range parts {
			if p.Base != c.bases[i] || p.Base+p.VAT != p.Total || p.Total != c.amounts[i] {
				t.Errorf("%s: line %d = %+v, want base %d of %d", c.name, i, p, c.bases[i], c.amounts[i])
			}
		}
		if sum.Base != c.base || sum.Base+sum.VAT != sum.Total {
			t.Errorf("%s: totals %+v, want base %d", c.name, sum, c.base)
		}
	}
}

// Property test over random receipts: the totals are the rounded exact split of
// the total (checked with big rationals, independently of Split's integer
// arithmetic); each line's base is its exact base rounded down or up; the lines
// add up to the totals exactly; no VAT is negative.
func TestSplitProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 12))
	rates := []int{2100, 1000, 400, 0, 1050, 700, 2000}
	for n := 0; n < 20000; n++ {
		rate := rates[rng.IntN(len(rates))]
		amounts := make([]money.Cents, 1+rng.IntN(8))
		var total money.Cents
		for i := range amounts {
			switch rng.IntN(4) {
			case 0:
				amounts[i] = money.Cents(rng.IntN(100)) // small, often 0
			default:
				amounts[i] = money.Cents(rng.Int64N(5_000_000))
			}
			total += amounts[i]
		}
		parts, sum := Split(amounts, rate)
		factor := big.NewRat(10_000, int64(10_000+rate))
		exact := func(c money.Cents) *big.Rat { return new(big.Rat).Mul(big.NewRat(int64(c), 1), factor) }
		// Round half away from zero, all amounts non-negative: floor(x + 1/2).
		want := new(big.Rat).Add(exact(total), big.NewRat(1, 2))
		wantBase := new(big.Int).Quo(want.Num(), want.Denom())
		if sum.Total != total || int64(sum.Base) != wantBase.Int64() || sum.VAT != total-sum.Base {
			t.Fatalf("amounts %v rate %d: totals %+v, want total %d base %s", amounts, rate, sum, total, wantBase)
		}
		var add Part
		for i, p := range parts {
			e := exact(amounts[i])
			lo := new(big.Int).Quo(e.Num(), e.Denom())
			if p.Total != amounts[i] || p.VAT < 0 || p.Base+p.VAT != p.Total ||
				(int64(p.Base) != lo.Int64() && int64(p.Base) != lo.Int64()+1) || (e.IsInt() && int64(p.Base) != lo.Int64()) {
				t.Fatalf("amounts %v rate %d: line %d = %+v, exact base %s", amounts, rate, i, p, e.FloatString(4))
			}
			add.Total, add.Base, add.VAT = add.Total+p.Total, add.Base+p.Base, add.VAT+p.VAT
		}
		if add != sum {
			t.Fatalf("amounts %v rate %d: lines add up to %+v, totals %+v", amounts, rate, add, sum)
		}
	}
}

func TestBaseOfRoundsHalfAwayFromZero(t *testing.T) {
	// 0.5 cent exactly: 10050 at 1 % rate is 9950.49…; use a rate with an exact half:
	// 3 cents at 100 % is 1.5 → 2; -3 → -2.
	if got := BaseOf(3, 10_000); got != 2 {
		t.Errorf("BaseOf(3, 100 %%) = %d, want 2", got)
	}
	if got := BaseOf(-3, 10_000); got != -2 {
		t.Errorf("BaseOf(-3, 100 %%) = %d, want -2", got)
	}
}

func TestNumberAndRate(t *testing.T) {
	if got := Number(2027, 123); got != "F2027-000123" {
		t.Errorf("Number = %q", got)
	}
	if got := Number(2027, 1234567); got != "F2027-1234567" {
		t.Errorf("Number past a million = %q", got)
	}
	for bp, want := range map[int]string{2100: "21", 1050: "10.5", 0: "0", 425: "4.25"} {
		if got := RateText(bp); got != want {
			t.Errorf("RateText(%d) = %q, want %q", bp, got, want)
		}
	}
}
