package booking

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"parking/internal/fault"
	"parking/internal/feed"
	"parking/internal/pricing"
	"parking/internal/reservation"
	"parking/internal/store"
)

// AdminChange is an administrator's update of a reservation (spec: reservation
// update from the detail page). A nil field was not sent and keeps its stored value.
type AdminChange struct {
	// Customer.
	FullName, Phone, Email *string
	// Vehicle. The plate cannot change (spec, Vehicle); a plate sent that differs
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
// Spec, per-state rules: PENDIENTE edits everything; EN CURSO keeps its entry date
// (a sent one is ignored) and must keep a spot; FINALIZADA and CANCELADA refuse
// every change. The price is recalculated on the server whenever a date, the
// vehicle type, the main service or the additional services change; an edit that
// touches none of them keeps the stored total (CONTRACT §4: a stored price never
// changes because the catalog did).
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
		if r.Status.Terminal() {
			return fault.Invalidf("La reserva %d está %s: no admite cambios.", id, r.Status)
		}
		cust, err := tx.Customer(ctx, r.CustomerID)
		if err != nil {
			return err
		}
		veh, err := tx.Vehicle(ctx, r.VehicleID)
		if err != nil {
			return err
		}
		booked, err := tx.ReservationExtras(ctx, id)
		if err != nil {
			return err
		}

		contact, err := applyContact(cust, c)
		if err != nil {
			return err
		}
		newVeh, err := applyVehicle(veh, c)
		if err != nil {
			return err
		}

		// The reservation's own fields.
		entry = r.Entry
		if c.Entry != nil && r.Status == reservation.Pending {
			entry = *c.Entry // EN CURSO: the stored entry is kept (spec, per-state rules)
		}
		exit = r.Exit
		if c.ExitSet {
			exit = c.Exit
		}
		mainService := r.MainServiceID
		if c.MainService != nil {
			mainService = *c.MainService
		}
		storedIDs := extraIDs(booked)
		ids := storedIDs
		if c.Extras != nil {
			ids = *c.Extras
		}
		newSpot := r.Spot
		if c.Spot != nil {
			newSpot = nil
			if n := NormalizeSpot(*c.Spot); n != "" {
				newSpot = &n
			}
		}
		if newSpot != nil {
			if err := CheckLength("cod_parking_spot", *newSpot, MaxSpot); err != nil {
				return err
			}
			spot = *newSpot
		}
		// Spec, parking spot rule on update: EN CURSO (and FINALIZADA, refused above)
		// must keep a spot.
		if newSpot == nil && r.Status == reservation.InCourse {
			return fault.Invalidf("La reserva %d está %s: la plaza de aparcamiento no puede quedar vacía.", id, r.Status)
		}
		notes := r.Notes
		if c.Notes != nil {
			notes = nil
			if n := strings.TrimSpace(*c.Notes); n != "" {
				if err := CheckLength("notes", n, MaxNotes); err != nil {
					return err
				}
				notes = &n
			}
		}
		if err := s.exitAfterEntry(entry, exit); err != nil {
			return err
		}

		stay := store.AdminStay{
			Stay:  store.Stay{Entry: entry, Exit: exit, MainServiceID: mainService, TotalPrice: r.TotalPrice},
			Spot:  newSpot,
			Notes: notes,
		}
		reprice := !entry.Equal(r.Entry) || !sameTime(exit, r.Exit) || pricing.NormalizeVehicleType(newVeh.Type) != pricing.NormalizeVehicleType(veh.Type) ||
			mainService != r.MainServiceID || !sameIDSet(ids, storedIDs)
		if reprice {
			priced, err := s.priceStay(WalkIn, entry, exit, newVeh.Type, mainService, ids)
			if err != nil {
				return err
			}
			stay.TotalPrice, stay.Extras = priced.Quote.Total, priced.Extras
		} else {
			stay.KeepExtras = true
		}

		// Spots are physical (issue 4).
		if err := s.ensureSpotFree(ctx, tx, id, spot, entry, exit); err != nil {
			return err
		}
		if err := s.saveContact(ctx, tx, cust, contact); err != nil {
			return err
		}
		if err := followContact(ctx, tx, r, cust, contact); err != nil {
			return err
		}
		if newVeh != veh {
			if err := tx.UpdateVehicleDetails(ctx, newVeh); err != nil {
				return err
			}
		}
		ok, err := tx.UpdateAdminStay(ctx, id, r.Status, stay)
		if err != nil {
			return err
		}
		if !ok {
			return statusMoved(id)
		}
		out.Repriced = reprice
		if out.Reservation, err = tx.Reservation(ctx, id); err != nil {
			return err
		}
		if out.Customer, err = tx.Customer(ctx, cust.ID); err != nil {
			return err
		}
		out.Vehicle = newVeh
		return nil
	})
	if err != nil {
		err = s.spotViolation(ctx, err, id, spot, entry, exit)
		return Updated{}, fmt.Errorf("update reservation %d: %w", id, err)
	}
	if !sameSpot(before.Spot, out.Reservation.Spot) || (out.Reservation.Spot != nil && (!before.Entry.Equal(out.Reservation.Entry) || !sameTime(before.Exit, out.Reservation.Exit))) {
		s.publishParking(feed.SpotChanged, out.Reservation, before.Spot)
	}
	return out, nil
}

// applyContact merges the sent customer fields into the stored ones and validates them.
func applyContact(cust reservation.Customer, c AdminChange) (store.CustomerContact, error) {
	out := store.CustomerContact{FullName: cust.FullName, Email: cust.Email}
	if cust.Phone != nil {
		out.Phone = *cust.Phone
	}
	if c.FullName != nil {
		out.FullName = strings.TrimSpace(*c.FullName)
	}
	if c.Phone != nil {
		out.Phone = strings.TrimSpace(*c.Phone)
	}
	if c.Email != nil {
		out.Email = nil
		if e := strings.TrimSpace(*c.Email); e != "" {
			out.Email = &e
		}
	}
	if out.Phone == "" {
		return out, fault.Invalidf("El teléfono del cliente es obligatorio.")
	}
	email := ""
	if out.Email != nil {
		email = *out.Email
	}
	for _, f := range []struct {
		field, value string
		max          int
	}{{"full_name", out.FullName, MaxName}, {"phone", out.Phone, MaxPhone}, {"email", email, MaxEmail}} {
		if err := CheckLength(f.field, f.value, f.max); err != nil {
			return out, err
		}
	}
	if c.Email != nil && email != "" && !ValidEmail(email) {
		return out, fault.Invalidf("El correo electrónico %q no es válido.", email)
	}
	// An account logs in with its email: it cannot be left without one.
	if email == "" && cust.Type != reservation.Unregistered {
		return out, fault.Invalidf("El cliente tiene una cuenta registrada: su correo electrónico es obligatorio.")
	}
	return out, nil
}

// followContact keeps a reservation's contact (CONTRACT §8) in step with an edit of
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
	return tx.SetReservationContact(ctx, r.ID, next)
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
		other, err := tx.CustomerWithPhone(ctx, c.Phone, cust.ID)
		if err == nil {
			return fault.New(fault.Conflict, "El teléfono %s ya pertenece a otro cliente (número %d); no se puede asignar a este.", c.Phone, other)
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	if cust.Type != reservation.Unregistered && !strings.EqualFold(newEmail, oldEmail) {
		other, err := tx.AccountWithEmail(ctx, newEmail, cust.ID)
		if err == nil {
			return fault.New(fault.Conflict, "El correo %s ya es el de otra cuenta (número %d).", newEmail, other)
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	if err := tx.UpdateCustomerContact(ctx, cust.ID, c); err != nil {
		if store.IsUniqueViolation(err) {
			return &fault.Error{Kind: fault.Conflict, Err: err, Message: "El teléfono o el correo ya pertenecen a otro cliente."}
		}
		return err
	}
	return nil
}

// applyVehicle merges the sent vehicle fields into the stored ones and validates them.
func applyVehicle(v reservation.Vehicle, c AdminChange) (reservation.Vehicle, error) {
	out := v
	out.Type = pricing.NormalizeVehicleType(v.Type)
	if c.LicensePlate != nil {
		if p := NormalizePlate(*c.LicensePlate); p != "" && p != v.LicensePlate {
			return out, fault.Invalidf("La matrícula no se puede modificar: la reserva es del vehículo %s.", v.LicensePlate)
		}
	}
	if c.Brand != nil {
		out.Brand = orDefault(*c.Brand, reservation.DefaultBrand)
	}
	if c.Model != nil {
		out.Model = orDefault(*c.Model, reservation.DefaultModel)
	}
	if c.Color != nil {
		out.Color = orDefault(*c.Color, reservation.DefaultColor)
	}
	if c.VehicleType != nil {
		out.Type = pricing.NormalizeVehicleType(*c.VehicleType)
		if out.Type == "" {
			return out, fault.Invalidf("El tipo de vehículo es obligatorio.")
		}
	}
	for _, f := range []struct{ field, value string }{{"brand", out.Brand}, {"model", out.Model}, {"color", out.Color}, {"vehicle_type", out.Type}} {
		if err := CheckLength(f.field, f.value, MaxText); err != nil {
			return out, err
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

// sameIDSet compares two selections of additional services as sets.
func sameIDSet(a, b []int64) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}
