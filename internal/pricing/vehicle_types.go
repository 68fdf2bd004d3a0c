package pricing

// The seed's vehicle types include synonyms (COCHE for TURISMO, MOTO for
// MOTOCICLETA) that stored bookings use and the price accepts; a customer
// choosing a type sees each kind of vehicle once (docs/pricing.md#vehicle-types).
var typeSynonyms = map[string]string{"COCHE": "TURISMO", "MOTO": "MOTOCICLETA"}

// OfferedTypes are the coefficients to offer as choices: one per kind of vehicle.
// A synonym is left out when the type it stands for is in the catalog at the same
// multiplier (a different multiplier makes it a kind of its own); keep, when not
// "", is offered even so (a stored vehicle's own type).
func OfferedTypes(c []Coefficient, keep string) []Coefficient {
	mult := make(map[string]Coefficient, len(c))
	for _, k := range c {
		mult[k.VehicleType] = k
	}
	out := make([]Coefficient, 0, len(c))
	for _, k := range c {
		if to, ok := typeSynonyms[k.VehicleType]; ok && k.VehicleType != keep {
			if canon, ok := mult[to]; ok && canon.Multiplier == k.Multiplier {
				continue
			}
		}
		out = append(out, k)
	}
	return out
}
