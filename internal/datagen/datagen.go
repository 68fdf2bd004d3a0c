// Package datagen is the generator behind `parking generate`, and nothing else
// uses it: a measurement tool shipped in the binary, not part of the service. It
// fills a database with a realistic history: a 1,000-place airport car park over
// three years (by default 1,000,000 reservations), with repeat customers, Spanish
// names and plates, the default catalog's prices, cancellations, vehicles parked
// right now on their spots, and future bookings. The same seed gives the same data.
package datagen

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"parking/internal/pricing"
	"parking/internal/store"
)

// Options shape the generated history.
type Options struct {
	Reservations int       // total reservations (default 1,000,000)
	Places       int       // spots in the car park (default 1,000)
	Years        int       // history length (default 3)
	Now          time.Time // "now" of the data set (default: the current time)
	Seed         uint64
	Location     *time.Location
}

// Summary says what was written.
type Summary struct {
	Customers, Vehicles, Reservations, Extras, InCourse, Pending int
	Elapsed                                                      time.Duration
}

var (
	firstNames = []string{"Antonio", "María", "Manuel", "Carmen", "José", "Ana", "Francisco", "Laura", "David", "Isabel",
		"Juan", "Lucía", "Javier", "Marta", "Daniel", "Elena", "Carlos", "Paula", "Miguel", "Sara", "Rafael", "Cristina",
		"Pedro", "Raquel", "Pablo", "Pilar", "Ángel", "Rosa", "Sergio", "Nuria", "Fernando", "Silvia", "Jorge", "Julia"}
	surnames = []string{"García", "Rodríguez", "González", "Fernández", "López", "Martínez", "Sánchez", "Pérez", "Gómez",
		"Martín", "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno", "Muñoz", "Álvarez", "Romero", "Alonso", "Gutiérrez",
		"Navarro", "Torres", "Domínguez", "Vázquez", "Ramos", "Gil", "Ramírez", "Serrano", "Blanco", "Molina"}
	brands = []struct{ brand, model string }{{"Seat", "León"}, {"Seat", "Ibiza"}, {"Volkswagen", "Golf"}, {"Renault", "Clio"},
		{"Peugeot", "208"}, {"Toyota", "Corolla"}, {"Kia", "Sportage"}, {"Hyundai", "Tucson"}, {"Dacia", "Sandero"},
		{"Citroën", "C4"}, {"Ford", "Focus"}, {"BMW", "Serie 3"}, {"Audi", "A3"}, {"Mercedes", "Clase A"}, {"Tesla", "Model 3"}}
	colors = []string{"Blanco", "Negro", "Gris", "Plata", "Azul", "Rojo", "Verde", "Beige"}
	// Vehicle types weighted by how often they come: mostly cars.
	types = []struct {
		name   string
		weight int
	}{{"TURISMO", 45}, {"COCHE", 20}, {"SUV", 18}, {"FURGONETA", 6}, {"MOTO", 3}, {"MOTOCICLETA", 2}, {"CARAVANA", 2}, {"CAMION", 1}, {"ESPECIAL", 3}}
	consonants = []byte("BCDFGHJKLMNPRSTVWXYZ")
)

// Generate writes the data set through st. The database should be migrated and
// hold the default catalog; ids continue after whatever is there.
func Generate(ctx context.Context, st *store.Store, o Options, log *slog.Logger) (Summary, error) {
	start := time.Now()
	if o.Reservations <= 0 {
		o.Reservations = 1_000_000
	}
	if o.Places <= 0 {
		o.Places = 1000
	}
	if o.Years <= 0 {
		o.Years = 3
	}
	if o.Now.IsZero() {
		o.Now = st.Clock()() // the service's clock
	}
	if o.Location == nil {
		o.Location = time.UTC
	}
	cat, err := st.Catalog().LoadCatalog(ctx)
	if err != nil {
		return Summary{}, err
	}
	snap := pricing.NewSnapshot(cat)
	if len(cat.MainServices) == 0 {
		return Summary{}, fmt.Errorf("the catalog is empty: run the service or migrate once first")
	}
	rng := rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))

	baseCustomer, err := st.MaxID(ctx, "customer", "id_customer")
	if err != nil {
		return Summary{}, err
	}
	baseVehicle, err := st.MaxID(ctx, "vehicle", "id_vehicle")
	if err != nil {
		return Summary{}, err
	}
	baseReservation, err := st.MaxID(ctx, "reservation", "id_reservation")
	if err != nil {
		return Summary{}, err
	}

	// About one customer for every three reservations: airports have many regulars.
	nCustomers := max(o.Reservations/3, 1)
	nVehicles := nCustomers + nCustomers/10
	now := store.Time(o.Now)
	var sum Summary

	err = st.InTx(ctx, func(tx *store.Tx) error {
		rows := make([][]any, 0, nCustomers)
		for i := 0; i < nCustomers; i++ {
			id := baseCustomer + int64(i) + 1
			name := firstNames[rng.IntN(len(firstNames))] + " " + surnames[rng.IntN(len(surnames))] + " " + surnames[rng.IntN(len(surnames))]
			phone := fmt.Sprintf("+346%08d", (baseCustomer+int64(i))%100_000_000) // E.164, as the service stores phones (docs/input-rules.md#phones)
			var email any
			if rng.IntN(10) < 7 {
				email = fmt.Sprintf("cliente%d@example.com", id)
			}
			rows = append(rows, []any{id, name, phone, email, "NO-REGISTRADO", now})
		}
		if err := tx.BulkInsert(ctx, "customer", []string{"id_customer", "full_name", "phone", "email", "type", "created_at"}, rows); err != nil {
			return err
		}
		sum.Customers = len(rows)
		log.Info("customers written", "count", len(rows))

		rows = rows[:0]
		vehicleTypes := make([]string, nVehicles)
		links := make([][]any, 0, nVehicles)
		totalWeight := 0
		for _, t := range types {
			totalWeight += t.weight
		}
		for i := 0; i < nVehicles; i++ {
			id := baseVehicle + int64(i) + 1
			w := rng.IntN(totalWeight)
			typ := types[0].name
			for _, t := range types {
				if w < t.weight {
					typ = t.name
					break
				}
				w -= t.weight
			}
			vehicleTypes[i] = typ
			b := brands[rng.IntN(len(brands))]
			rows = append(rows, []any{id, plate(baseVehicle + int64(i)), b.brand, b.model, colors[rng.IntN(len(colors))], typ, now})
			owner := baseCustomer + int64(i%nCustomers) + 1
			links = append(links, []any{owner, id, now})
		}
		if err := tx.BulkInsert(ctx, "vehicle", []string{"id_vehicle", "license_plate", "brand", "model", "color", "type", "created_at"}, rows); err != nil {
			return err
		}
		if err := tx.BulkInsert(ctx, "customer_vehicle", []string{"id_customer", "id_vehicle", "created_at"}, links); err != nil {
			return err
		}
		sum.Vehicles = len(rows)
		log.Info("vehicles written", "count", len(rows))

		from := now.AddDate(-o.Years, 0, 0)
		until := now.AddDate(0, 0, 60) // bookings already made for the next two months
		span := until.Sub(from)
		freeSpots := make([]string, o.Places)
		for i := range freeSpots {
			freeSpots[i] = spotCode(i)
		}
		rng.Shuffle(len(freeSpots), func(i, j int) { freeSpots[i], freeSpots[j] = freeSpots[j], freeSpots[i] })

		const batch = 20_000
		res := make([][]any, 0, batch)
		extras := make([][]any, 0, batch/2)
		flush := func() error {
			if err := tx.BulkInsert(ctx, "reservation", []string{"id_reservation", "reservation_date", "entry_date", "exit_date", "status",
				"total_price_cents", "is_paid", "payment_method", "cod_parking_spot", "id_customer", "id_vehicle", "id_main_service", "updated_at"}, res); err != nil {
				return err
			}
			if err := tx.BulkInsert(ctx, "reservation_additional_service", []string{"id_reservation", "id_additional_service", "price_cents"}, extras); err != nil {
				return err
			}
			sum.Extras += len(extras)
			res, extras = res[:0], extras[:0]
			return nil
		}
		for i := 0; i < o.Reservations; i++ {
			id := baseReservation + int64(i) + 1
			// Busier in summer and around Christmas: accept a uniform instant with a
			// seasonal probability.
			var entry time.Time
			for {
				entry = from.Add(time.Duration(rng.Int64N(int64(span))))
				m := entry.In(o.Location).Month()
				p := 70
				if m == time.July || m == time.August || m == time.December {
					p = 100
				}
				if rng.IntN(100) < p {
					break
				}
			}
			local := entry.In(o.Location)
			entry = time.Date(local.Year(), local.Month(), local.Day(), 5+rng.IntN(18), rng.IntN(4)*15, 0, 0, o.Location).UTC()
			stay := stayLength(rng)
			exit := entry.Add(stay)
			vIdx := rng.IntN(nVehicles)
			vehicleID := baseVehicle + int64(vIdx) + 1
			customerID := baseCustomer + int64(vIdx%nCustomers) + 1
			svc := cat.MainServices[rng.IntN(len(cat.MainServices))].ID
			var picked []int64
			if rng.IntN(10) < 3 && len(cat.Extras) > 0 {
				picked = append(picked, cat.Extras[rng.IntN(len(cat.Extras))].ID)
				if rng.IntN(4) == 0 {
					if e := cat.Extras[rng.IntN(len(cat.Extras))].ID; e != picked[0] {
						picked = append(picked, e)
					}
				}
			}
			q, err := snap.Quote(pricing.Request{Entry: entry, Exit: exit, VehicleType: vehicleTypes[vIdx], MainService: svc, Extras: picked})
			if err != nil {
				return fmt.Errorf("price generated reservation: %w", err)
			}
			booked := entry.Add(-time.Duration(rng.Int64N(int64(45 * 24 * time.Hour)))).Add(-time.Hour)
			status, paid := "FINALIZADA", true
			var method, spot any = "TARJETA", spotCode(rng.IntN(o.Places))
			if rng.IntN(3) == 0 {
				method = "EFECTIVO"
			}
			switch {
			case rng.IntN(100) < 7: // cancelled before arrival, at any time
				status, paid, method, spot = "CANCELADA", false, nil, nil
			case entry.After(now):
				status, paid, method, spot = "PENDIENTE", false, nil, nil
				sum.Pending++
			case exit.After(now):
				if len(freeSpots) == 0 { // full car park: this one never came
					status, paid, method, spot = "CANCELADA", false, nil, nil
					break
				}
				status, paid, method = "EN CURSO", false, nil
				spot, freeSpots = freeSpots[len(freeSpots)-1], freeSpots[:len(freeSpots)-1]
				sum.InCourse++
			}
			if booked.After(now) {
				booked = now
			}
			res = append(res, []any{id, booked, entry, exit, status, int64(q.Total), paid, method, spot, customerID, vehicleID, svc, booked})
			for _, e := range picked {
				x, _ := snap.Extra(e)
				extras = append(extras, []any{id, e, int64(x.Price)})
			}
			if len(res) == batch {
				if err := flush(); err != nil {
					return err
				}
				if (i+1)%200_000 == 0 {
					log.Info("reservations written", "count", i+1)
				}
			}
		}
		sum.Reservations = o.Reservations
		return flush()
	})
	if err != nil {
		return sum, err
	}
	if err := st.ResetSequences(ctx); err != nil {
		return sum, err
	}
	// Booking references (docs/manage-booking.md#booking-reference) are drawn per row with retry on collision,
	// which a bulk insert cannot do: they are given afterwards, as at start.
	if _, err := st.Reservations().AssignReferences(ctx); err != nil {
		return sum, err
	}
	if err := st.Analyze(ctx); err != nil {
		return sum, err
	}
	sum.Elapsed = time.Since(start)
	return sum, nil
}

// stayLength: many short trips, a good share of week-long holidays, a few long ones.
func stayLength(rng *rand.Rand) time.Duration {
	switch p := rng.IntN(100); {
	case p < 30:
		return time.Duration(4+rng.IntN(20)) * time.Hour
	case p < 65:
		return time.Duration(1+rng.IntN(3))*24*time.Hour + time.Duration(rng.IntN(4))*time.Hour
	case p < 92:
		return time.Duration(4+rng.IntN(7)) * 24 * time.Hour
	default:
		return time.Duration(11+rng.IntN(20)) * 24 * time.Hour
	}
}

// plate makes the i-th Spanish plate: four digits and three consonants (0000BBB…).
func plate(i int64) string {
	digits := i % 10000
	n := i / 10000
	l := make([]byte, 3)
	for k := 2; k >= 0; k-- {
		l[k] = consonants[n%int64(len(consonants))]
		n /= int64(len(consonants))
	}
	return fmt.Sprintf("%04d%s", digits, l)
}

// spotCode names the i-th place: rows A… of 100 places, "A-001".
func spotCode(i int) string {
	return fmt.Sprintf("%c-%03d", 'A'+rune(i/100%26), i%100+1)
}
