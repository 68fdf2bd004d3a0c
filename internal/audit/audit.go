// Package audit describes the audit trail: who changed what, when, and which fields
// went from what to what. It is a leaf package (no SQL, no HTTP): the web guards put
// the Actor in the request's context, the operations (internal/booking,
// internal/account) build an Entry with the changed fields (Compare), and the store
// writes it with (*store.Tx).Audit inside the transaction of the change, so the
// trail and the change commit or roll back together.
//
// Wiring a new write operation (the whole recipe):
//
//	err := s.store.InTx(ctx, func(tx *store.Tx) error {
//		before := fieldsOf(old)                      // audit.Fields of the entity before
//		…write…
//		return tx.Audit(ctx, audit.Entry{
//			Action: audit.ActionCancel, Entity: audit.EntityReservation, EntityID: audit.ID(id),
//			ReservationID: id, Changes: audit.Compare(before, fieldsOf(new)),
//		})
//	})
//
// The actor comes from ctx (WithActor): the web guards set the signed-in account;
// flows without an account set one of the fixed actors (Public, ManageLink); code
// that runs with no actor at all (background jobs, the command line) is recorded as
// System.
package audit

import (
	"context"
	"strconv"
	"time"
)

// Kind says what sort of actor made a change.
type Kind string

const (
	KindStaff    Kind = "staff"    // an ADMIN account (session or token)
	KindCustomer Kind = "customer" // a customer's own account
	KindPublic   Kind = "public"   // an anonymous online booking
	KindLink     Kind = "link"     // a customer through a manage-my-booking link
	KindSystem   Kind = "system"   // background jobs, the command line, start-up
)

// Actor is who made a change. ID is the account's id (0 for the fixed actors).
type Actor struct {
	Kind  Kind
	ID    int64
	Name  string
	Email string
}

// The fixed actors of changes made without an account.
var (
	Public     = Actor{Kind: KindPublic, Name: "público"}
	ManageLink = Actor{Kind: KindLink, Name: "cliente (enlace)"}
	System     = Actor{Kind: KindSystem, Name: "sistema"}
)

// Label is how pages name the actor: "Nombre <email>" for accounts, the fixed name
// otherwise.
func (a Actor) Label() string {
	switch {
	case a.ID == 0 || a.Email == "":
		return a.Name
	case a.Name == "":
		return a.Email
	}
	return a.Name + " <" + a.Email + ">"
}

type actorKey struct{}

// WithActor returns ctx carrying the actor of the changes made under it.
func WithActor(ctx context.Context, a Actor) context.Context {
	return context.WithValue(ctx, actorKey{}, a)
}

// ActorFrom returns the actor ctx carries, and whether it carries one.
func ActorFrom(ctx context.Context) (Actor, bool) {
	a, ok := ctx.Value(actorKey{}).(Actor)
	return a, ok
}

// ActorOr returns the actor ctx carries, or def when it carries none.
func ActorOr(ctx context.Context, def Actor) Actor {
	if a, ok := ActorFrom(ctx); ok {
		return a
	}
	return def
}

// Entities of the trail.
const (
	EntityReservation = "reservation"
	EntityMainService = "main_service"
	EntityRate        = "rate"
	EntityVehicleType = "vehicle_type"
	EntityExtra       = "additional_service"
	EntitySettings    = "settings"
	EntityStaff       = "staff"
	EntityGateDevice  = "gate_device"
)

// Actions of the trail. New operations add theirs here, so the list of what is
// recorded stays on one screen (docs/staff-and-audit.md lists them too).
const (
	ActionCreate         = "create"            // public or account booking; catalog item or staff account created
	ActionWalkIn         = "walk_in"           // booking made at the counter
	ActionUpdate         = "update"            // staff edit of a reservation; catalog item changed
	ActionCustomerEdit   = "customer_edit"     // the customer changed dates or services
	ActionCancel         = "cancel"            // cancelled (by staff, by the customer or through the link)
	ActionStart          = "start"             // check-in: PENDIENTE → EN CURSO
	ActionFinalize       = "finalize"          // check-out: EN CURSO → FINALIZADA
	ActionSpot           = "spot"              // parking spot assigned, moved or freed
	ActionPhoto          = "photo_added"       // a photo recorded
	ActionInvoiceRequest = "invoice_request"   // an invoice notification requested by staff
	ActionDelete         = "delete"            // a catalog item removed
	ActionDisable        = "disable"           // staff account disabled
	ActionEnable         = "enable"            // staff account enabled again
	ActionPassword       = "password"          // staff account given a new password
	ActionSettings       = "settings"          // facility settings saved
	ActionOverCapacity   = "capacity_override" // staff accepted a stay on full days (docs/capacity.md#refusals)
	ActionArrived        = "arrived"           // a gate camera saw the car arrive (docs/gate.md#arrival)
)

// Entry is one recorded change. EntityID is text so that entities keyed by name
// (vehicle types) fit; ReservationID (0: none) ties the entry to a reservation's
// trail.
type Entry struct {
	Action        string
	Entity        string
	EntityID      string
	ReservationID int64
	Changes       []Change
}

// ID formats a numeric entity id.
func ID(id int64) string { return strconv.FormatInt(id, 10) }

// Record is an Entry as stored: with its id, time and actor.
type Record struct {
	ID    int64
	At    time.Time
	Actor Actor
	Entry
}

// Change is one field's value before and after ("" before: it was set; "" after:
// it was cleared).
type Change struct {
	Field  string
	Before string
	After  string
}

// Field is one named value of an entity, as the trail shows it.
type Field struct {
	Name  string
	Value string
}

// Fields is an entity's state as a list of named values, in the order pages show
// them. Build it with F and the helpers below.
type Fields []Field

// F builds Fields from name, value pairs.
func F(pairs ...string) Fields {
	out := make(Fields, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, Field{Name: pairs[i], Value: pairs[i+1]})
	}
	return out
}

// Compare lists the fields whose value differs between before and after, in
// after's order and then the ones only before has. A field missing on one side
// counts as "". Equal states give no changes (nil).
func Compare(before, after Fields) []Change {
	old := make(map[string]string, len(before))
	for _, f := range before {
		old[f.Name] = f.Value
	}
	var out []Change
	seen := make(map[string]bool, len(after))
	for _, f := range after {
		seen[f.Name] = true
		if b := old[f.Name]; b != f.Value {
			out = append(out, Change{Field: f.Name, Before: b, After: f.Value})
		}
	}
	for _, f := range before {
		if !seen[f.Name] && f.Value != "" {
			out = append(out, Change{Field: f.Name, Before: f.Value})
		}
	}
	return out
}

// Str formats an optional text ("" for nil).
func Str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Bool formats a flag as the pages show it.
func Bool(b bool) string {
	if b {
		return "sí"
	}
	return "no"
}
