package settings

import (
	"testing"

	"parking/internal/fault"
)

func TestSellableLimit(t *testing.T) {
	cases := []struct {
		name               string
		capacity, sellable int
		want               int
	}{
		{"unlimited", 0, 0, 0},
		{"capacity only", 120, 0, 120},
		{"oversell on turnover", 120, 140, 140},
		{"keep places for walk-ins", 120, 100, 100},
	}
	for _, c := range cases {
		if got := (Facility{Capacity: c.capacity, Sellable: c.sellable}).SellableLimit(); got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, got, c.want)
		}
	}
}

func TestParsePercent(t *testing.T) {
	good := map[string]int{"21": 2100, "10,5": 1050, "4.00": 400, " 0 ": 0, "100": 10000, "21%": 2100, "7.25": 725}
	for in, want := range good {
		got, err := ParsePercent("vat_rate", in)
		if err != nil || got != want {
			t.Errorf("ParsePercent(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "abc", "-1", "100.01", "21.555", "1e2", "+5", ","} {
		if _, err := ParsePercent("vat_rate", in); fault.KindOf(err) != fault.Invalid {
			t.Errorf("ParsePercent(%q): got %v, want an Invalid fault", in, err)
		}
	}
}

func TestNormalise(t *testing.T) {
	f, err := Facility{Capacity: 10, Name: "  Parking Sur ", TaxID: "b12345674", Email: " Info@Parking.Example ",
		VATBasisPoints: 2100, PhotoRetentionDays: 365}.Normalise()
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "Parking Sur" || f.TaxID != "B12345674" || f.Email != "Info@Parking.Example" {
		t.Errorf("got name %q, tax id %q, email %q", f.Name, f.TaxID, f.Email)
	}
	bad := []Facility{
		{Capacity: -1, VATBasisPoints: 2100, PhotoRetentionDays: 1},
		{Sellable: MaxPlaces + 1, VATBasisPoints: 2100, PhotoRetentionDays: 1},
		{Email: "no-at-sign", VATBasisPoints: 2100, PhotoRetentionDays: 1},
		{VATBasisPoints: 10001, PhotoRetentionDays: 1},
		{VATBasisPoints: 2100, PhotoRetentionDays: 0},
		{Name: "bad\x00name", VATBasisPoints: 2100, PhotoRetentionDays: 1},
	}
	for i, b := range bad {
		if _, err := b.Normalise(); fault.KindOf(err) != fault.Invalid {
			t.Errorf("case %d (%+v): got %v, want an Invalid fault", i, b, err)
		}
	}
}
