// Package settings holds the facility's own settings (docs/settings.md): the places it
// has and sells (docs/capacity.md#settings), its identity as a business (name, tax id, address, phone,
// contact email) printed on receipts and the privacy pages, the VAT rate its prices
// include (docs/settings.md), and how long check-in photos are kept. They live in one table,
// edited on one administrator page; environment variables only seed them on first
// start. The package is pure: the store keeps the values, booking changes them.
package settings

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/input"
)

// Facility is the one row of settings.
type Facility struct {
	Capacity int // places in the car park; 0 = unlimited
	Sellable int // places sold per day (docs/capacity.md#settings); 0 = the capacity

	Name    string // the business name on receipts and the privacy pages
	TaxID   string // NIF/CIF
	Address string
	Phone   string
	Email   string // contact email for customers and privacy requests

	VATBasisPoints     int // VAT included in every price, in basis points: 2100 = 21 %
	PhotoRetentionDays int // check-in photos are deleted this many days after a stay ends

	// ChargeOverstay: a car collected after its booked exit plus the courtesy
	// period pays its real stay (docs/exit.md#overstay); false keeps the booked
	// exit and price. True on a new database.
	ChargeOverstay bool

	// ExitGraceMinutes: how long after a paid check-out the exit camera still opens
	// for the car (docs/gate.md#answers); 30 on a new database.
	ExitGraceMinutes int

	// Arrival is how to reach the car park and hand the car over, in each language
	// the service speaks (docs/settings.md#arrival-instructions): the confirmation,
	// the manage page and the booking's notifications show it.
	Arrival Texts
}

// Texts is a text in each language the service speaks.
type Texts struct{ ES, EN, DE, FR string }

// MaxArrival is the longest arrival instructions text, per language.
const MaxArrival = 1000

// In is the text in lang, else the Spanish one (the service's own language).
func (t Texts) In(lang string) string {
	v := map[string]string{"es": t.ES, "en": t.EN, "de": t.DE, "fr": t.FR}[lang]
	if v == "" {
		return t.ES
	}
	return v
}

// Field is the text of one language by its settings field name (arrival_es…),
// for the forms; nil for an unknown name.
func (t *Texts) Field(name string) *string {
	switch name {
	case "arrival_es":
		return &t.ES
	case "arrival_en":
		return &t.EN
	case "arrival_de":
		return &t.DE
	case "arrival_fr":
		return &t.FR
	}
	return nil
}

// ArrivalFields are the settings' field names of the arrival instructions.
var ArrivalFields = []string{"arrival_es", "arrival_en", "arrival_de", "arrival_fr"}

// DisplayName is the facility's name as customers read it: the name set on the
// settings page, else the service's own ("Parking Aeropuerto").
func (f Facility) DisplayName() string {
	if n := strings.TrimSpace(f.Name); n != "" {
		return n
	}
	return DefaultName
}

// DefaultName names the car park until the settings give it a name.
const DefaultName = "Parking Aeropuerto"

// MapURL is a map search for the facility's address (a link phones open in their
// maps app); "" without an address.
func (f Facility) MapURL() string {
	a := strings.TrimSpace(f.Address)
	if a == "" {
		return ""
	}
	return "https://www.google.com/maps/search/?api=1&query=" + url.QueryEscape(a)
}

// Defaults and limits.
const (
	DefaultVATBasisPoints     = 2100
	DefaultPhotoRetentionDays = 365
	MaxPlaces                 = 1_000_000
	MaxRetentionDays          = 3650
	MaxAddress                = 200
	MaxTaxID                  = 20
	MaxPhone                  = 30
	DefaultExitGraceMinutes   = 30
	MaxExitGraceMinutes       = 1440
)

// Defaults are the settings of a new database: the capacity PARKING_CAPACITY seeds,
// everything else at its default, the identity blank until staff fill it in.
func Defaults(capacity int) Facility {
	return Facility{Capacity: capacity, VATBasisPoints: DefaultVATBasisPoints, PhotoRetentionDays: DefaultPhotoRetentionDays, ChargeOverstay: true,
		ExitGraceMinutes: DefaultExitGraceMinutes}
}

// SellerMissing names the identity fields a receipt needs that are still blank
// (the seller's name, tax id and address), in that order; none: receipts can be
// issued. Until they are set, staff are told on every page and at start.
func (f Facility) SellerMissing() []string {
	var out []string
	for _, x := range []struct{ field, value string }{{"name", f.Name}, {"tax_id", f.TaxID}, {"address", f.Address}} {
		if strings.TrimSpace(x.value) == "" {
			out = append(out, x.field)
		}
	}
	return out
}

// SellableLimit is how many places the public flows may sell on one day: the
// sellable places when set, else the capacity; 0 means no limit (docs/capacity.md#settings).
func (f Facility) SellableLimit() int {
	if f.Sellable > 0 {
		return f.Sellable
	}
	return f.Capacity
}

// Normalise applies the input rules to every field and returns the settings as
// stored, or a fault.Invalid naming the first field that is wrong.
func (f Facility) Normalise() (Facility, error) {
	var err error
	if f.Capacity < 0 || f.Capacity > MaxPlaces {
		return f, fault.Coded(fault.Invalid, "err.settings.capacity", "Field", i18n.FieldName("capacity"), "Max", MaxPlaces)
	}
	if f.Sellable < 0 || f.Sellable > MaxPlaces {
		return f, fault.Coded(fault.Invalid, "err.settings.sellable", "Field", i18n.FieldName("sellable"), "Max", MaxPlaces)
	}
	if f.Name, err = input.Text("name", f.Name, input.MaxName); err != nil {
		return f, err
	}
	if f.TaxID, err = input.Text("tax_id", f.TaxID, MaxTaxID); err != nil {
		return f, err
	}
	f.TaxID = strings.ToUpper(f.TaxID)
	if f.TaxID != "" { // the issuer of every receipt and its VeriFactu record (docs/settings.md)
		if f.TaxID, err = input.TaxID("tax_id", f.TaxID); err != nil {
			return f, err
		}
	}
	if f.Address, err = input.Text("address", f.Address, MaxAddress); err != nil {
		return f, err
	}
	if f.Phone, err = input.Text("phone", f.Phone, MaxPhone); err != nil {
		return f, err
	}
	if f.Email = strings.TrimSpace(f.Email); f.Email != "" {
		if f.Email, err = input.Email("email", f.Email); err != nil {
			return f, err
		}
	}
	for _, name := range ArrivalFields {
		p := f.Arrival.Field(name)
		if *p, err = input.Notes(name, *p, MaxArrival); err != nil {
			return f, err
		}
	}
	if f.VATBasisPoints < 0 || f.VATBasisPoints > 10000 {
		return f, percentRange("vat_rate")
	}
	if f.PhotoRetentionDays < 1 || f.PhotoRetentionDays > MaxRetentionDays {
		return f, fault.Coded(fault.Invalid, "err.settings.retention_days", "Field", i18n.FieldName("photo_retention_days"), "Max", MaxRetentionDays)
	}
	if f.ExitGraceMinutes < 0 || f.ExitGraceMinutes > MaxExitGraceMinutes {
		return f, fault.Coded(fault.Invalid, "err.settings.exit_grace", "Field", i18n.FieldName("exit_grace_minutes"), "Max", MaxExitGraceMinutes)
	}
	return f, nil
}

// VATPercent writes the VAT rate as a percentage: 2100 → 21, 1050 → 10.5.
func (f Facility) VATPercent() float64 { return float64(f.VATBasisPoints) / 100 }

// ParsePercent reads a percentage with at most two decimals, with a decimal point
// or the Spanish comma ("21", "10,5", "4.00"), as basis points.
func ParsePercent(field, raw string) (int, error) {
	s := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(raw), "%"))
	s = strings.Replace(s, ",", ".", 1)
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(frac) > 2 || strings.ContainsAny(whole+frac, "+-") {
		return 0, notPercent(field, raw)
	}
	w, err1 := strconv.Atoi(whole)
	f := 0
	var err2 error
	if frac != "" {
		f, err2 = strconv.Atoi((frac + "0")[:2])
	}
	if err1 != nil || err2 != nil {
		return 0, notPercent(field, raw)
	}
	bp := w*100 + f
	if bp > 10000 {
		return 0, percentRange(field)
	}
	return bp, nil
}

func notPercent(field, raw string) error {
	return fault.Coded(fault.Invalid, "err.settings.percent", "Field", i18n.FieldName(field), "Value", raw)
}

func percentRange(field string) error {
	return fault.Coded(fault.Invalid, "err.settings.percent_range", "Field", i18n.FieldName(field))
}

// String is for logs.
func (f Facility) String() string {
	return fmt.Sprintf("capacity=%d sellable=%d vat=%dbp retention=%dd charge_overstay=%t exit_grace=%dm", f.Capacity, f.Sellable, f.VATBasisPoints, f.PhotoRetentionDays, f.ChargeOverstay, f.ExitGraceMinutes)
}
