package reservation

// SpotRule says what a state allows for the parking spot (docs/reservations.md#per-state-rules,
// column "Parking spot").
type SpotRule int

const (
	// SpotFree: assignable and clearable (PENDIENTE).
	SpotFree SpotRule = iota
	// SpotRequired: may change but must stay assigned (EN CURSO).
	SpotRequired
	// SpotKept: frozen as it is (FINALIZADA).
	SpotKept
	// SpotNone: cleared by the transition and stays null (CANCELADA).
	SpotNone
)

// Rules is one row of the spec's per-state table, plus the transitions the spec's
// "States and transitions" allows from that state. It is the one place that says
// what a state permits: the operations enforce it, the pages enable buttons and
// fields from it, and the tests read it.
type Rules struct {
	EditEntry    bool     // entry date editable (EN CURSO keeps the existing value)
	EditStay     bool     // exit date, main service and additional services editable
	EditPeople   bool     // vehicle and customer data editable by staff
	Spot         SpotRule // what may happen to the parking spot
	AddPhotos    bool     // photos addable
	Start        bool     // administrator start: → EN CURSO
	Finalize     bool     // administrator finalize: → FINALIZADA
	Cancel       bool     // administrator or customer cancel: → CANCELADA
	RequestBill  bool     // a manual invoice notification may be requested (docs/notifications.md#manual-invoice)
	CustomerEdit bool     // the owner may change dates and services (docs/customer-area.md)
}

// Editable reports whether anything at all may be changed in this state.
func (r Rules) Editable() bool { return r.EditStay || r.EditEntry || r.EditPeople }

// rules is the spec's per-state table (docs/reservations.md#transitions; per-state
// rules). Keep it the only copy.
var rules = map[Status]Rules{
	Pending: {
		EditEntry: true, EditStay: true, EditPeople: true, Spot: SpotFree, AddPhotos: true,
		Start: true, Cancel: true, RequestBill: true, CustomerEdit: true,
	},
	InCourse: {
		EditStay: true, EditPeople: true, Spot: SpotRequired, AddPhotos: true,
		Finalize: true, RequestBill: true, CustomerEdit: true,
	},
	Finalized: {Spot: SpotKept, RequestBill: true},
	Cancelled: {Spot: SpotNone},
}

// For returns the rules of a state; an unknown state allows nothing.
func For(s Status) Rules {
	if r, ok := rules[s]; ok {
		return r
	}
	return Rules{Spot: SpotKept}
}
