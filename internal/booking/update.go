package booking

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/feed"
	"parking/internal/input"
	"parking/internal/pricing"
	"parking/internal/reservation"
	"parking/internal/store"
)

// AdminChange is an administrator's update of a reservation (spec: reservation
// update from the detail page). A nil field was not sent and keeps its stored value.
type AdminChange struct {
	// Customer.
	FullName, Phone, Email *string
	// Vehicle. The plate cannot change (docs/reservations.md#vehicle); a plate sent that differs
	// from the stored one is refused rather than silently ignored.
	LicensePlate                     *string
	Brand, Model, Color, VehicleType *string
	// Reservation. ExitSet with a nil Exit opens the exit (priced for one day).
	Entry       *time.Time
	ExitSet     bool
	Exit        *time.Time
	MainService *int64
	Extras      *[]int64 // the complete new selection
	Spot        *string  // trimmed and upper-cased; blank frees the spot
	Notes       *string
	// OverrideCapacity accepts the change on a full day (docs/capacity.md#refusals).
	OverrideCapacity bool
}

// Updated is the outcome of an update.
type Updated struct {
	Reservation reservation.Reservation
	Customer    reservation.Customer
	Vehicle     reservation.Vehicle
	Repriced    bool // false when nothing that prices changed: the stored total was kept
}

// AdminUpdate applies an administrator's change to reservation id in one transaction
// (customer, vehicle, reservation and additional services together, or nothing).
// docs/reservations.md#per-state-rules: PENDIENTE edits everything; EN CURSO keeps its entry date
// (a sent one is ignored) and must keep a spot; FINALIZADA and CANCELADA refuse
// every change. The price goes through the one price path (price.go, docs/pricing.md#one-price-path):
// recalculated on the server when a date, the vehicle type, the main service or the
// additional services change, with the extras already booked keeping their booked
// price; an edit that touches none of them keeps the stored total.
func (s *Service) AdminUpdate(ctx context.Context, id int64, c AdminChange) (Updated, error) {
	var out Updated
	var before reservation.Reservation
	var spot string
	var entry time.Time
	var exit *time.Time
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		r, err := lockForAdmin(ctx, tx, id)
		if err != nil {
			return err
		}
		before = r
		rules := reservation.For(r.Status) // docs/reservations.md#per-state-rules (internal/reservation/rules.go)
		if !rules.Editable() {
			return fault.Coded(fault.Invalid, "err.booking.locked", "ID", id, "Status", r.Status.Word())
		}
		prev, err := s.trail.readState(ctx, tx, id, true)
		if err != nil {
			return err
		}
		cust, err := tx.Customers().Customer(ctx, r.CustomerID)
		if err != nil {
			return err
		}
		veh, err := tx.Customers().Vehicle(ctx, r.VehicleID)
		if err != nil {
			return err
		}
		booked, err := tx.Reservations().ReservationExtras(ctx, id)
		if err != nil {
			return err
		}

		contact, err := applyContact(s.input, cust, c)
		if err != nil {
			return err
		}
		newVeh, err := applyVehicle(veh, c)
		if err != nil {
			return err
		}

		// The reservation's own fields.
		entry = r.Entry
		if c.Entry != nil && rules.EditEntry {
			entry = *c.Entry // EN CURSO: the stored entry is kept (docs/reservations.md#per-state-rules)
		}
		exit = r.Exit
		if c.ExitSet {
			exit = c.Exit
		}
		mainService := r.MainServiceID
		if c.MainService != nil {
			mainService = *c.MainService
		}
		ids := extraIDs(booked)
		if c.Extras != nil {
			ids = *c.Extras
		}
		newSpot := r.Spot
		if c.Spot != nil {
			newSpot = nil
			n, err := input.Spot("cod_parking_spot", *c.Spot)
			if err != nil {
				return err
			}
			if n != "" {
				newSpot = &n
			}
		}
		if newSpot != nil {
			spot = *newSpot
		}
		// docs/reservations.md#parking-spot: EN CURSO (and FINALIZADA, refused above)
		// must keep a spot.
		if newSpot == nil && rules.Spot == reservation.SpotRequired {
			return fault.Coded(fault.Invalid, "err.booking.spot_required", "ID", id, "Status", r.Status.Word())
		}
		notes := r.Notes
		if c.Notes != nil {
			notes = nil
			n, err := input.Notes("notes", *c.Notes, input.MaxNotes)
			if err != nil {
				return err
			}
			if n != "" {
				notes = &n
			}
		}
		if err := s.dates.exitAfterEntry(entry, exit); err != nil {
			return err
		}

		// The one price path (price.go, docs/pricing.md#one-price-path): an edit that changes no pricing
		// input keeps the total and the booked extras; otherwise it is repriced with
		// today's rates, booked extras keeping their booked price.
		priced, err := s.price(ctx, WalkIn, stay{Entry: entry, Exit: exit, VehicleType: newVeh.Type, MainService: mainService, Extras: ids},
			bookedOf(r, veh.Type, booked), nil)
		if err != nil {
			return err
		}
		upd := store.AdminStay{
			Stay:       store.Stay{Entry: entry, Exit: exit, MainServiceID: mainService, TotalPrice: priced.Quote.Total, Extras: priced.Extras},
			Spot:       newSpot,
			Notes:      notes,
			KeepExtras: !priced.Repriced,
		}

		// Spots are physical (issue 4).
		if err := s.spots.ensureSpotFree(ctx, tx, id, spot, entry, exit); err != nil {
			return err
		}
		if err := s.saveContact(ctx, tx, cust, contact); err != nil {
			return err
		}
		if err := followContact(ctx, tx, r, cust, contact); err != nil {
			return err
		}
		// A contact or customer email changed by staff may make the reservation
		// qualify for the account: it is claimed now (docs/privacy.md#who-sees-a-booking).
		if _, err := tx.Customers().ClaimQualifying(ctx, r.CustomerID, reservation.Claimable); err != nil {
			return err
		}
		if newVeh != veh {
			if err := tx.Customers().UpdateVehicleDetails(ctx, newVeh); err != nil {
				return err
			}
		}
		ok, err := tx.Reservations().UpdateAdminStay(ctx, id, r.Status, upd)
		if err != nil {
			return err
		}
		if !ok {
			return statusMoved(id)
		}
		out.Repriced = priced.Repriced
		if out.Reservation, err = tx.Reservations().Reservation(ctx, id); err != nil {
			return err
		}
		// docs/capacity.md#what-counts: the days the new dates add are checked; freed ones are released.
		if err := s.occupy(ctx, tx, id, stayOf(r), stayOf(out.Reservation), staffCheck, c.OverrideCapacity); err != nil {
			return err
		}
		if out.Customer, err = tx.Customers().Customer(ctx, cust.ID); err != nil {
			return err
		}
		out.Vehicle = newVeh
		if err := s.notes.syncReminder(ctx, tx, id); err != nil { // docs/manage-booking.md#the-reminder-the-day-before-booking_reminder: moved with the entry
			return err
		}
		return s.auditUpdate(ctx, tx, prev)
	})
	if err != nil {
		err = s.spots.spotViolation(ctx, err, id, spot, entry, exit)
		return Updated{}, fmt.Errorf("update reservation %d: %w", id, err)
	}
	if !sameSpot(before.Spot, out.Reservation.Spot) || (out.Reservation.Spot != nil && (!before.Entry.Equal(out.Reservation.Entry) || !sameTime(before.Exit, out.Reservation.Exit))) {
		s.report.publishParking(feed.SpotChanged, out.Reservation, before.Spot)
	}
	return out, nil
}

// auditUpdate records a staff update: "spot" when only the parking spot changed
// (assigned, moved or freed), "update" otherwise; an update that changed nothing
// records nothing.
func (s *Service) auditUpdate(ctx context.Context, tx *store.Tx, prev resState) error {
	next, err := s.trail.readState(ctx, tx, prev.r.ID, true)
	if err != nil {
		return err
	}
	changes := audit.Compare(s.trail.fields(prev), s.trail.fields(next))
	if len(changes) == 0 {
		return nil
	}
	action := audit.ActionUpdate
	if onlyField(changes, "cod_parking_spot") {
		action = audit.ActionSpot
	}
	return tx.Audit(ctx, audit.Entry{Action: action, Entity: audit.EntityReservation,
		EntityID: audit.ID(prev.r.ID), ReservationID: prev.r.ID, Changes: changes})
}

// applyContact merges the sent customer fields into the stored ones and puts them
// in their stored forms (docs/input-rules.md, internal/input). A field not sent keeps its
// stored value as is, so data stored before these rules never blocks another change.
func applyContact(rules input.Rules, cust reservation.Customer, c AdminChange) (store.CustomerContact, error) {
	out := store.CustomerContact{FullName: cust.FullName, Email: cust.Email}
	if cust.Phone != nil {
		out.Phone = *cust.Phone
	}
	var err error
	if c.FullName != nil {
		if out.FullName, err = input.Text("full_name", *c.FullName, input.MaxName); err != nil {
			return out, err
		}
	}
	if c.Phone != nil {
		if strings.TrimSpace(*c.Phone) == "" {
			return out, fault.Coded(fault.Invalid, "err.booking.customer_phone_required")
		}
		if cust.Phone == nil || strings.TrimSpace(*c.Phone) != *cust.Phone {
			if out.Phone, err = rules.Phone("phone", *c.Phone); err != nil {
				return out, err
			}
		}
	}
	if c.Email != nil {
		out.Email = nil
		if strings.TrimSpace(*c.Email) != "" {
			e, err := input.Email("email", *c.Email)
			if err != nil {
				return out, err
			}
			out.Email = &e
		}
	}
	if out.Phone == "" {
		return out, fault.Coded(fault.Invalid, "err.booking.customer_phone_required")
	}
	// An account logs in with its email: it cannot be left without one.
	if out.Email == nil && cust.Type != reservation.Unregistered {
		return out, fault.Coded(fault.Invalid, "err.booking.account_email_required")
	}
	return out, nil
}

// followContact keeps a reservation's contact (docs/public-booking.md#privacy-of-anonymous-bookings) in step with an edit of
// its customer's data when the two were the same before it (the usual case: the
// booker is the customer); a contact typed by someone else stays as typed, and the
// detail page shows both.
func followContact(ctx context.Context, tx *store.Tx, r reservation.Reservation, cust reservation.Customer, c store.CustomerContact) error {
	if r.Contact == nil || !sameContact(*r.Contact, reservation.Contact{FullName: cust.FullName, Email: cust.Email, Phone: cust.Phone}) {
		return nil
	}
	next := reservation.Contact{FullName: c.FullName, Email: c.Email, Phone: &c.Phone}
	if sameContact(*r.Contact, next) {
		return nil
	}
	return tx.Reservations().SetReservationContact(ctx, r.ID, next)
}

func sameContact(a, b reservation.Contact) bool {
	eq := func(x, y *string) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return a.FullName == b.FullName && eq(a.Email, b.Email) && eq(a.Phone, b.Phone)
}

// saveContact writes the customer's data when it changed. A phone (the booking
// flows' identity) or an account email used by another customer is a Conflict.
func (s *Service) saveContact(ctx context.Context, tx *store.Tx, cust reservation.Customer, c store.CustomerContact) error {
	oldPhone, oldEmail := "", ""
	if cust.Phone != nil {
		oldPhone = *cust.Phone
	}
	if cust.Email != nil {
		oldEmail = *cust.Email
	}
	newEmail := ""
	if c.Email != nil {
		newEmail = *c.Email
	}
	if c.FullName == cust.FullName && c.Phone == oldPhone && newEmail == oldEmail {
		return nil
	}
	if c.Phone != oldPhone {
		other, err := tx.Customers().CustomerWithPhone(ctx, c.Phone, cust.ID)
		if err == nil {
			return fault.Coded(fault.Conflict, "err.booking.phone_taken", "Phone", c.Phone, "Customer", other)
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	if cust.Type != reservation.Unregistered && !strings.EqualFold(newEmail, oldEmail) {
		other, err := tx.Customers().AccountWithEmail(ctx, newEmail, cust.ID)
		if err == nil {
			return fault.Coded(fault.Conflict, "err.booking.email_taken", "Email", newEmail, "Account", other)
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	if err := tx.Customers().UpdateCustomerContact(ctx, cust.ID, c); err != nil {
		if store.IsUniqueViolation(err) {
			return coded(fault.Conflict, err, "err.booking.contact_taken")
		}
		return err
	}
	return nil
}

// applyVehicle merges the sent vehicle fields into the stored ones and validates them.
func applyVehicle(v reservation.Vehicle, c AdminChange) (reservation.Vehicle, error) {
	out := v
	out.Type = pricing.NormalizeVehicleType(v.Type)
	// The plate sent is compared in its canonical form ("9988 lmn" is 9988LMN).
	if c.LicensePlate != nil {
		if p := input.PlateForm(*c.LicensePlate); p != "" && p != v.LicensePlate && p != input.PlateForm(v.LicensePlate) {
			return out, fault.Coded(fault.Invalid, "err.booking.plate_fixed", "Plate", v.LicensePlate)
		}
	}
	for _, f := range []struct {
		field    string
		sent     *string
		dst      *string
		fallback string
	}{
		{"brand", c.Brand, &out.Brand, reservation.DefaultBrand}, {"model", c.Model, &out.Model, reservation.DefaultModel},
		{"color", c.Color, &out.Color, reservation.DefaultColor}, {"vehicle_type", c.VehicleType, &out.Type, ""},
	} {
		if f.sent == nil {
			continue
		}
		t, err := input.Text(f.field, *f.sent, input.MaxText)
		if err != nil {
			return out, err
		}
		*f.dst = orDefault(t, f.fallback)
	}
	if c.VehicleType != nil {
		out.Type = pricing.NormalizeVehicleType(out.Type)
		if out.Type == "" {
			return out, fault.Coded(fault.Invalid, "err.booking.vehicle_type_required")
		}
	}
	if out.Type == pricing.NormalizeVehicleType(v.Type) {
		out.Type = v.Type // unchanged: keep the stored spelling
	}
	return out, nil
}

func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}
