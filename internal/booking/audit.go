package booking

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"parking/internal/audit"
	"parking/internal/localtime"
	"parking/internal/pricing"
	"parking/internal/reservation"
	"parking/internal/store"
)

// The audit trail of reservations (docs/staff-and-audit.md). Every operation that
// writes a reservation records one entry in its own transaction: it reads the
// reservation's state before the change (resState), makes the change, reads it
// again, and calls auditReservation with both; audit.Compare keeps the fields that
// differ. The actor travels in ctx (audit.WithActor, set by the web guards).

// trail is how the operations record a reservation in the audit trail: its state
// read in a transaction and listed as the trail shows it (times in the facility's
// zone, services named from the catalog). It needs nothing else of the Service.
type trail struct {
	loc     *time.Location
	catalog *pricing.Holder
}

// resState is what the trail compares of a reservation: the row, its extras, and
// (for the staff update, which may change them) its customer and vehicle. A zero
// Customer or Vehicle is left out of the fields.
type resState struct {
	r      reservation.Reservation
	extras []reservation.BookedExtraDetail
	cust   *reservation.Customer
	veh    *reservation.Vehicle
}

// readState reads reservation id's state inside tx; withPeople adds its customer
// and vehicle.
func (s *trail) readState(ctx context.Context, tx *store.Tx, id int64, withPeople bool) (resState, error) {
	var st resState
	var err error
	if st.r, err = tx.Reservations().Reservation(ctx, id); err != nil {
		return st, err
	}
	if st.extras, err = tx.Reservations().ReservationExtras(ctx, id); err != nil {
		return st, err
	}
	if withPeople {
		c, err := tx.Customers().Customer(ctx, st.r.CustomerID)
		if err != nil {
			return st, err
		}
		v, err := tx.Customers().Vehicle(ctx, st.r.VehicleID)
		if err != nil {
			return st, err
		}
		st.cust, st.veh = &c, &v
	}
	return st, nil
}

// fields lists a reservation's state with the spec's field names, values as the
// pages show them (times in the facility's zone, prices in euros).
func (s *trail) fields(st resState) audit.Fields {
	r := st.r
	f := audit.F(
		"status", string(r.Status),
		"entry_date", s.auditTime(&r.Entry),
		"exit_date", s.auditTime(r.Exit),
		"id_main_service", s.serviceLabel(r.MainServiceID),
		"additional_services", s.extrasLabel(st.extras),
		"total_price", r.TotalPrice.String(),
		"is_paid", audit.Bool(r.IsPaid),
		"payment_method", paymentLabel(r.PaymentMethod),
		"cod_parking_spot", audit.Str(r.Spot),
		"notes", audit.Str(r.Notes),
	)
	if r.Contact != nil {
		f = append(f, audit.F(
			"contact.full_name", r.Contact.FullName,
			"contact.email", audit.Str(r.Contact.Email),
			"contact.phone", audit.Str(r.Contact.Phone))...)
	}
	if c := st.cust; c != nil {
		f = append(f, audit.F(
			"customer.full_name", c.FullName,
			"customer.email", audit.Str(c.Email),
			"customer.phone", audit.Str(c.Phone))...)
	}
	if v := st.veh; v != nil {
		f = append(f, audit.F(
			"license_plate", v.LicensePlate,
			"brand", v.Brand, "model", v.Model, "color", v.Color,
			"vehicle_type", v.Type)...)
	}
	return f
}

// auditTransition is the common case of the state changes (start, finalize,
// cancel, …): record the reservation's state before the change, then after it.
func (s *trail) auditTransition(ctx context.Context, tx *store.Tx, action string, before resState) error {
	after, err := s.readState(ctx, tx, before.r.ID, before.cust != nil)
	if err != nil {
		return err
	}
	return auditReservation(ctx, tx, action, before.r.ID, s.fields(before), s.fields(after))
}

func (s *trail) auditTime(t *time.Time) string {
	if t == nil {
		return ""
	}
	return localtime.Spanish(*t, s.loc)
}

// serviceLabel is "Name (id)" from the current catalog, or the bare id.
func (s *trail) serviceLabel(id int64) string {
	if id == 0 {
		return ""
	}
	if snap := s.catalog.Load(); snap != nil {
		if m, ok := snap.MainService(id); ok {
			return fmt.Sprintf("%s (%d)", m.Name, id)
		}
	}
	return strconv.FormatInt(id, 10)
}

// extrasLabel lists booked extras as "Name 12.00, …" in id order.
func (s *trail) extrasLabel(extras []reservation.BookedExtraDetail) string {
	snap := s.catalog.Load()
	parts := make([]string, len(extras))
	for i, e := range extras {
		name := e.Name
		if name == "" && snap != nil {
			if x, ok := snap.Extra(e.ID); ok {
				name = x.Name
			}
		}
		if name == "" {
			name = "#" + strconv.FormatInt(e.ID, 10)
		}
		parts[i] = name + " " + e.Price.String()
	}
	return strings.Join(parts, ", ")
}

// bookedDetails names the extras a new reservation was priced with.
func bookedDetails(snap *pricing.Snapshot, extras []store.BookedExtra) []reservation.BookedExtraDetail {
	out := make([]reservation.BookedExtraDetail, len(extras))
	for i, e := range extras {
		out[i] = reservation.BookedExtraDetail{ID: e.ID, Price: e.Price}
		if snap != nil {
			if x, ok := snap.Extra(e.ID); ok {
				out[i].Name = x.Name
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID }) // as store.ReservationExtras reads them
	return out
}

func paymentLabel(p *reservation.PaymentMethod) string {
	if p == nil {
		return ""
	}
	return string(*p)
}

// onlyField reports whether every change is of the named field.
func onlyField(cs []audit.Change, name string) bool {
	for _, c := range cs {
		if c.Field != name {
			return false
		}
	}
	return len(cs) > 0
}

// stateOf is readState for a reservation row already read (under its lock).
func (s *trail) stateOf(ctx context.Context, tx *store.Tx, r reservation.Reservation) (resState, error) {
	extras, err := tx.Reservations().ReservationExtras(ctx, r.ID)
	return resState{r: r, extras: extras}, err
}
