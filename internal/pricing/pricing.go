// Package pricing holds the catalog snapshot and the spec's price rule. It is pure:
// no database, no clock, no floating point; the snapshot is swapped atomically when
// administrators change the catalog (docs/pricing.md#catalog).
package pricing

import (
	"errors"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"parking/internal/i18n"
	"parking/internal/money"
)

// MainService is a main service (ECO, TRANSFER, MEET…). Inactive ones are not
// offered to customers; administrators still see and price them.
type MainService struct {
	ID          int64
	Name        string
	Description string
	Active      bool
}

// Rate is one band of a main service's daily price: MinDays <= days <= MaxDays.
type Rate struct {
	ID          int64
	MainService int64
	MinDays     int64
	MaxDays     int64
	DailyPrice  money.Cents
}

// Coefficient multiplies the base price of one vehicle type.
type Coefficient struct {
	VehicleType string
	Multiplier  money.Multiplier
}

// Extra is an additional service with a fixed price.
type Extra struct {
	ID     int64
	Name   string
	Price  money.Cents
	Active bool
}

// Catalog is the plain data the store loads and the snapshot indexes.
type Catalog struct {
	MainServices []MainService
	Rates        []Rate
	Coefficients []Coefficient
	Extras       []Extra
}

// Snapshot is an immutable, indexed catalog. Never modify one after NewSnapshot.
type Snapshot struct {
	catalog  Catalog
	services map[int64]MainService
	rates    map[int64][]Rate
	coef     map[string]money.Multiplier
	extras   map[int64]Extra
}

// NewSnapshot indexes a catalog. Vehicle types are matched case-insensitively
// (stored upper-case); rates are kept in band order.
func NewSnapshot(c Catalog) *Snapshot {
	s := &Snapshot{
		catalog:  c,
		services: make(map[int64]MainService, len(c.MainServices)),
		rates:    make(map[int64][]Rate),
		coef:     make(map[string]money.Multiplier, len(c.Coefficients)),
		extras:   make(map[int64]Extra, len(c.Extras)),
	}
	for _, m := range c.MainServices {
		s.services[m.ID] = m
	}
	for _, r := range c.Rates {
		s.rates[r.MainService] = append(s.rates[r.MainService], r)
	}
	for id := range s.rates {
		rs := s.rates[id]
		sort.Slice(rs, func(i, j int) bool { return rs[i].MinDays < rs[j].MinDays })
	}
	for _, k := range c.Coefficients {
		s.coef[NormalizeVehicleType(k.VehicleType)] = k.Multiplier
	}
	for _, e := range c.Extras {
		s.extras[e.ID] = e
	}
	return s
}

// NormalizeVehicleType is the stored form of a vehicle type: trimmed, upper-case.
func NormalizeVehicleType(t string) string { return strings.ToUpper(strings.TrimSpace(t)) }

// Catalog returns the data the snapshot was built from (shared; do not modify).
func (s *Snapshot) Catalog() Catalog { return s.catalog }

// MainService finds a main service by id.
func (s *Snapshot) MainService(id int64) (MainService, bool) {
	m, ok := s.services[id]
	return m, ok
}

// Extra finds an additional service by id.
func (s *Snapshot) Extra(id int64) (Extra, bool) {
	e, ok := s.extras[id]
	return e, ok
}

// Multiplier finds the coefficient of a vehicle type.
func (s *Snapshot) Multiplier(vehicleType string) (money.Multiplier, bool) {
	m, ok := s.coef[vehicleType]
	if !ok {
		m, ok = s.coef[NormalizeVehicleType(vehicleType)]
	}
	return m, ok
}

// Request is what a price depends on.
type Request struct {
	Entry, Exit time.Time
	VehicleType string
	MainService int64
	// Extras are additional service ids priced at the snapshot's price: each id
	// counts once however often the list repeats it (docs/pricing.md#one-price-path), unknown ids are
	// skipped (rule 4). Which extras a booking may select (retired ones, booked
	// ones) is the booking package's decision, not this one's.
	Extras []int64
	// ExtraPrices are extras the caller has already selected and priced, added as
	// given: an edit keeps an extra at the price it was booked at (docs/pricing.md#repricing-an-edit).
	ExtraPrices []money.Cents
}

// Quote is a computed price with its parts, for breakdowns and notifications.
type Quote struct {
	Days          int64
	DailyPrice    money.Cents
	Multiplier    money.Multiplier
	Base          money.Cents // daily price × days × multiplier, rounded
	ExtrasTotal   money.Cents
	Total         money.Cents
	UnknownExtras int // additional service ids skipped (docs/pricing.md#price-rule)
}

// NoRateError: no band of the main service covers the number of days (price rule 2).
type NoRateError struct {
	MainService int64
	Name        string
	Days        int64
}

func (e *NoRateError) Error() string { return i18n.Words(i18n.Default, codeNoRate, true, e.args()...) }

// NoCoefficientError: the vehicle type has no multiplier (price rule 3).
type NoCoefficientError struct{ VehicleType string }

func (e *NoCoefficientError) Error() string {
	return i18n.Words(i18n.Default, codeNoCoefficient, true, e.args()...)
}

// ErrNotLoaded: pricing data has not been loaded (docs/pricing.md#catalog: pricing requests fail with 500).
var ErrNotLoaded = errors.New(i18n.Words(i18n.Default, codeNotLoaded, true))

// Courtesy is the price rule's courtesy period: a remainder of up to 2 hours is
// not charged as a day, and a car collected up to 2 hours after its booked exit
// is not late (docs/exit.md#overstay).
const Courtesy = 2 * time.Hour

const (
	msPerDay       = 24 * 60 * 60 * 1000
	courtesyMillis = int64(Courtesy / time.Millisecond) // docs/routes.md#limits: courtesy period 2 hours
)

// ChargedDays is price rule 1: whole 24-hour periods in the absolute difference,
// plus one when the remainder exceeds the 2-hour courtesy, and at least one.
func ChargedDays(entry, exit time.Time) int64 {
	diff := exit.UnixMilli() - entry.UnixMilli()
	if diff < 0 {
		diff = -diff
	}
	days := diff / msPerDay
	if diff%msPerDay > courtesyMillis {
		days++
	}
	if days == 0 {
		days = 1
	}
	return days
}

// Quote applies the spec's price rule. It does not allocate unless it fails.
func (s *Snapshot) Quote(r Request) (Quote, error) {
	if s == nil {
		return Quote{}, ErrNotLoaded
	}
	q := Quote{Days: ChargedDays(r.Entry, r.Exit)}

	// Rule 2: the band with min_days <= days <= max_days.
	found := false
	for _, rate := range s.rates[r.MainService] {
		if rate.MinDays <= q.Days && q.Days <= rate.MaxDays {
			q.DailyPrice, found = rate.DailyPrice, true
			break
		}
	}
	if !found {
		return Quote{}, &NoRateError{MainService: r.MainService, Name: s.services[r.MainService].Name, Days: q.Days}
	}

	// Rule 3: the vehicle type's multiplier.
	m, ok := s.Multiplier(r.VehicleType)
	if !ok {
		// A copy of the text: the request (its dates, its extras) stays on the caller's stack.
		return Quote{}, &NoCoefficientError{VehicleType: strings.Clone(r.VehicleType)}
	}
	q.Multiplier = m

	// Rule 4: fixed prices of the listed extras, each once (docs/pricing.md#one-price-path); unknown
	// ids are skipped. The repeat check scans the ids before it, which allocates
	// nothing; lists are a handful of ids.
	for i, id := range r.Extras {
		if slices.Contains(r.Extras[:i], id) {
			continue
		}
		if e, ok := s.extras[id]; ok {
			q.ExtrasTotal += e.Price
		} else {
			q.UnknownExtras++
		}
	}
	for _, p := range r.ExtraPrices {
		q.ExtrasTotal += p
	}

	// Rule 5, exactly: cents × days × ten-thousandths, rounded half away from zero
	// to whole cents once. Extras are whole cents, so adding them after rounding is
	// the same as rounding the whole total.
	q.Base = roundTenThousandths(int64(q.DailyPrice) * q.Days * int64(q.Multiplier))
	q.Total = q.Base + q.ExtrasTotal
	return q, nil
}

// roundTenThousandths divides by 10 000 rounding half away from zero.
func roundTenThousandths(v int64) money.Cents {
	if v >= 0 {
		return money.Cents((v + 5_000) / 10_000)
	}
	return -money.Cents((-v + 5_000) / 10_000)
}

// Holder holds the current snapshot behind an atomic pointer: readers never lock,
// and an administrator's catalog change is one Store.
type Holder struct{ p atomic.Pointer[Snapshot] }

// Load returns the current snapshot, or nil before the first Store.
func (h *Holder) Load() *Snapshot { return h.p.Load() }

// Store swaps in a new snapshot.
func (h *Holder) Store(s *Snapshot) { h.p.Store(s) }

// Default is the catalog seeded on an empty database (README: Default catalog).
func Default() Catalog {
	c := Catalog{}
	bands := [4][2]int64{{1, 3}, {4, 10}, {11, 15}, {16, 9999}}
	for i, svc := range []struct {
		name, desc string
		daily      [4]money.Cents
	}{
		{"ECO", "Aparcamiento descubierto con traslado en lanzadera.", [4]money.Cents{1200, 800, 600, 500}},
		{"TRANSFER", "Aparcamiento con traslado directo a la terminal.", [4]money.Cents{1500, 1100, 900, 800}},
		{"MEET", "Recogida y entrega del vehículo en la terminal.", [4]money.Cents{1800, 1400, 1200, 1100}},
	} {
		id := int64(i + 1)
		c.MainServices = append(c.MainServices, MainService{ID: id, Name: svc.name, Description: svc.desc, Active: true})
		for b, band := range bands {
			c.Rates = append(c.Rates, Rate{MainService: id, MinDays: band[0], MaxDays: band[1], DailyPrice: svc.daily[b]})
		}
	}
	for _, k := range []struct {
		t string
		m money.Multiplier
	}{
		{"TURISMO", 10000}, {"COCHE", 10000}, {"SUV", 12500}, {"FURGONETA", 12500},
		{"MOTOCICLETA", 5000}, {"MOTO", 5000}, {"CARAVANA", 20000}, {"CAMION", 20000}, {"ESPECIAL", 15000},
	} {
		c.Coefficients = append(c.Coefficients, Coefficient{VehicleType: k.t, Multiplier: k.m})
	}
	for i, e := range []struct {
		name  string
		price money.Cents
	}{
		{"Lavado básico", 1500}, {"Lavado interior", 2500}, {"Lavado integral", 5000}, {"Detallado pro", 10000},
		{"Repostaje", 1500}, {"Pasar ITV", 6000}, {"Mecánica rápida", 3000}, {"Carga de vehículo eléctrico", 2500},
	} {
		c.Extras = append(c.Extras, Extra{ID: int64(i + 1), Name: e.name, Price: e.price, Active: true})
	}
	return c
}
