package pricing

import (
	"errors"
	"math"
	"testing"
	"time"

	"parking/internal/money"
)

// testSnapshot is the default catalog with ids 1..3 (ECO, TRANSFER, MEET) and extras 1..8.
func testSnapshot() *Snapshot {
	c := Default()
	for i := range c.Rates {
		c.Rates[i].ID = int64(i + 1)
	}
	return NewSnapshot(c)
}

var t0 = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func TestChargedDays(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		name string
		d    time.Duration
		want int64
	}{
		{"0 ms is the minimum one day", 0, 1},
		{"1 h is the minimum one day", time.Hour, 1},
		{"exactly 2 h is still one day", 2 * time.Hour, 1},
		{"2 h + 1 ms is one day (remainder over courtesy, days 0+1)", 2*time.Hour + ms, 1},
		{"exactly 24 h", 24 * time.Hour, 1},
		{"26 h: remainder equals the courtesy, 1 day", 26 * time.Hour, 1},
		{"26 h + 1 ms: remainder exceeds the courtesy, 2 days", 26*time.Hour + ms, 2},
		{"48 h", 48 * time.Hour, 2},
		{"3 days 2 h", 74 * time.Hour, 3},
		{"3 days 2 h 1 ms", 74*time.Hour + ms, 4},
		{"sub-millisecond excess is ignored (milliseconds, spec rule 1)", 26*time.Hour + 999*time.Microsecond, 1},
		{"reversed dates use the absolute difference", -(26*time.Hour + ms), 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ChargedDays(t0, t0.Add(c.d)); got != c.want {
				t.Errorf("ChargedDays(%v) = %d, want %d", c.d, got, c.want)
			}
		})
	}
}

func TestQuote(t *testing.T) {
	s := testSnapshot()
	day := 24 * time.Hour
	cases := []struct {
		name    string
		stay    time.Duration
		vehicle string
		service int64
		extras  []int64
		want    money.Cents
		days    int64
	}{
		// Band boundaries of ECO: 1–3 at 12, 4–10 at 8, 11–15 at 6, 16–9999 at 5.
		{"ECO 1 day", day, "TURISMO", 1, nil, 1200, 1},
		{"ECO 3 days (top of band 1)", 3 * day, "TURISMO", 1, nil, 3600, 3},
		{"ECO 4 days (bottom of band 2)", 4 * day, "TURISMO", 1, nil, 3200, 4},
		{"ECO 10 days (top of band 2)", 10 * day, "TURISMO", 1, nil, 8000, 10},
		{"ECO 11 days (bottom of band 3)", 11 * day, "TURISMO", 1, nil, 6600, 11},
		{"ECO 15 days (top of band 3)", 15 * day, "TURISMO", 1, nil, 9000, 15},
		{"ECO 16 days (bottom of band 4)", 16 * day, "TURISMO", 1, nil, 8000, 16},
		{"ECO 9999 days (top of band 4)", 9999 * day, "TURISMO", 1, nil, 4999500, 9999},
		{"TRANSFER 3 days", 3 * day, "COCHE", 2, nil, 4500, 3},
		{"TRANSFER 4 days", 4 * day, "COCHE", 2, nil, 4400, 4},
		{"MEET 11 days", 11 * day, "COCHE", 3, nil, 13200, 11},
		{"MEET 16 days", 16 * day, "COCHE", 3, nil, 17600, 16},
		// Every coefficient, on MEET 1 day (18 €).
		{"TURISMO 1.00", day, "TURISMO", 3, nil, 1800, 1},
		{"COCHE 1.00", day, "COCHE", 3, nil, 1800, 1},
		{"SUV 1.25", day, "SUV", 3, nil, 2250, 1},
		{"FURGONETA 1.25", day, "FURGONETA", 3, nil, 2250, 1},
		{"MOTOCICLETA 0.50", day, "MOTOCICLETA", 3, nil, 900, 1},
		{"MOTO 0.50", day, "MOTO", 3, nil, 900, 1},
		{"CARAVANA 2.00", day, "CARAVANA", 3, nil, 3600, 1},
		{"CAMION 2.00", day, "CAMION", 3, nil, 3600, 1},
		{"ESPECIAL 1.50", day, "ESPECIAL", 3, nil, 2700, 1},
		{"vehicle type matched case-insensitively", day, " suv ", 3, nil, 2250, 1},
		// Extras.
		{"extras summed", 2 * day, "TURISMO", 1, []int64{1, 4, 8}, 2400 + 1500 + 10000 + 2500, 2},
		{"unknown extra skipped", 2 * day, "TURISMO", 1, []int64{1, 999}, 2400 + 1500, 2},
		{"listed twice counts once (docs/pricing.md#one-price-path)", day, "TURISMO", 1, []int64{5, 5}, 1200 + 1500, 1},
		{"repeats anywhere in the list count once", day, "TURISMO", 1, []int64{5, 1, 5, 1, 5}, 1200 + 1500 + 1500, 1},
		{"short stay is one day", time.Hour, "MOTO", 1, nil, 600, 1},
		{"reversed dates", -(4*day + 3*time.Hour), "SUV", 1, []int64{1}, 5000 + 1500, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := s.Quote(Request{Entry: t0, Exit: t0.Add(c.stay), VehicleType: c.vehicle, MainService: c.service, Extras: c.extras})
			if err != nil {
				t.Fatalf("Quote: %v", err)
			}
			if q.Total != c.want || q.Days != c.days {
				t.Errorf("total %v for %d days, want %v for %d days", q.Total, q.Days, c.want, c.days)
			}
			if q.Base+q.ExtrasTotal != q.Total {
				t.Errorf("base %v + extras %v != total %v", q.Base, q.ExtrasTotal, q.Total)
			}
		})
	}
}

func TestQuoteErrors(t *testing.T) {
	s := testSnapshot()
	_, err := s.Quote(Request{Entry: t0, Exit: t0.Add(time.Hour), VehicleType: "TURISMO", MainService: 42})
	var noRate *NoRateError
	if !errors.As(err, &noRate) || err.Error() != "No existe tarifa para el servicio 42 y 1 días." {
		t.Errorf("unknown service: err = %v", err)
	}

	c := Default()
	c.Rates = c.Rates[:2] // ECO only up to 10 days
	_, err = NewSnapshot(c).Quote(Request{Entry: t0, Exit: t0.Add(12 * 24 * time.Hour), VehicleType: "TURISMO", MainService: 1})
	if !errors.As(err, &noRate) || err.Error() != "No existe tarifa para el servicio ECO y 12 días." {
		t.Errorf("no band: err = %v", err)
	}

	_, err = s.Quote(Request{Entry: t0, Exit: t0.Add(time.Hour), VehicleType: "TANQUE", MainService: 1})
	var noCoef *NoCoefficientError
	if !errors.As(err, &noCoef) || err.Error() != "No existe coeficiente de precio para el tipo de vehículo TANQUE." {
		t.Errorf("unknown type: err = %v", err)
	}

	var nilSnap *Snapshot
	if _, err := nilSnap.Quote(Request{}); !errors.Is(err, ErrNotLoaded) {
		t.Errorf("nil snapshot: err = %v, want ErrNotLoaded", err)
	}
}

// Rounding is half away from zero on exact values, where binary floating point
// rounds the other way: 8.01 € × 2 days × 1.25 = 20.025 exactly, but in float64 the
// product is 20.024999…, which rounds to 20.02.
func TestQuoteRoundsHalfAwayFromZero(t *testing.T) {
	c := Catalog{
		MainServices: []MainService{{ID: 1, Name: "X", Active: true}},
		Rates:        []Rate{{MainService: 1, MinDays: 1, MaxDays: 9999, DailyPrice: 801}},
		Coefficients: []Coefficient{{VehicleType: "SUV", Multiplier: 12500}, {VehicleType: "RARO", Multiplier: 3333}},
	}
	s := NewSnapshot(c)
	price, days, coef := 8.01, 2.0, 1.25
	if f := math.Round(price * days * coef * 100); f != 2002 {
		t.Fatalf("premise: float64 rounding gives %v cents, expected 2002", f)
	}
	q, err := s.Quote(Request{Entry: t0, Exit: t0.Add(48 * time.Hour), VehicleType: "SUV", MainService: 1})
	if err != nil || q.Total != 2003 {
		t.Errorf("8.01 × 2 × 1.25 = %v (%v), want 20.03", q.Total, err)
	}
	// 8.01 × 1 × 0.3333 = 2.669733 → 2.67 (ordinary rounding still works).
	q, _ = s.Quote(Request{Entry: t0, Exit: t0.Add(time.Hour), VehicleType: "RARO", MainService: 1})
	if q.Total != 267 {
		t.Errorf("8.01 × 0.3333 = %v, want 2.67", q.Total)
	}
	if got := roundTenThousandths(-20_025_000); got != -2003 {
		t.Errorf("negative half rounds away from zero: got %v", got)
	}
}

func TestHolderSwap(t *testing.T) {
	var h Holder
	if h.Load() != nil {
		t.Fatal("empty holder should hold nothing")
	}
	a, b := testSnapshot(), NewSnapshot(Catalog{})
	h.Store(a)
	if h.Load() != a {
		t.Fatal("Load after Store(a) is not a")
	}
	h.Store(b)
	if h.Load() != b {
		t.Fatal("Load after Store(b) is not b")
	}
}

// ExtraPrices are added as given (an edit keeps an extra at its booked price),
// next to ids priced at the snapshot's price.
func TestQuoteExtraPrices(t *testing.T) {
	s := testSnapshot()
	q, err := s.Quote(Request{Entry: t0, Exit: t0.Add(24 * time.Hour), VehicleType: "TURISMO", MainService: 1,
		Extras: []int64{1}, ExtraPrices: []money.Cents{990, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if q.ExtrasTotal != 1500+990+1 || q.Total != 1200+1500+990+1 {
		t.Errorf("extras %v total %v, want 24.91 and 36.91", q.ExtrasTotal, q.Total)
	}
}

// TestQuoteDoesNotAllocate guards the benchmark's promise in every test run.
func TestQuoteDoesNotAllocate(t *testing.T) {
	s := testSnapshot()
	r := Request{Entry: t0, Exit: t0.Add(100 * time.Hour), VehicleType: "SUV", MainService: 2, Extras: []int64{1, 3, 1}, ExtraPrices: []money.Cents{990}}
	if n := testing.AllocsPerRun(1000, func() { _, _ = s.Quote(r) }); n != 0 {
		t.Errorf("Quote allocates %v times per call, want 0", n)
	}
}

func BenchmarkQuote(b *testing.B) {
	s := testSnapshot()
	r := Request{Entry: t0, Exit: t0.Add(100 * time.Hour), VehicleType: "SUV", MainService: 2, Extras: []int64{1, 3}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Quote(r); err != nil {
			b.Fatal(err)
		}
	}
}
