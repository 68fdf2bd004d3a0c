package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"parking/internal/database"
	"parking/internal/money"
	"parking/internal/reservation"
)

// NewReservation is a reservation about to be inserted.
type NewReservation struct {
	// ID, when set, is the id ReserveID drew for it (PostgreSQL): the insert and its
	// services are then queued (database.Tx.Queue) instead of run at once.
	ID            int64
	Entry         time.Time
	Exit          *time.Time
	TotalPrice    money.Cents
	Notes         *string
	Spot          *string
	CustomerID    int64
	VehicleID     int64
	MainServiceID int64
	Extras        []BookedExtra
	// Contact is what the booker typed (docs/public-booking.md#privacy-of-anonymous-bookings); BookedBy how it was made.
	Contact  *reservation.Contact
	BookedBy reservation.BookedBy
	// Claimed: the reservation is its customer's account's own from the start
	// (reservation.Claimable at booking time): claimed_at is the booking's time.
	Claimed bool
	// Language is the booking's language, one of i18n.Languages (docs/languages.md#the-bookings-language).
	Language string
	// Sale is a partner booking's partner, reference and commission rate (nil: none);
	// the channel follows from it and BookedBy (reservation.ChannelOf).
	Sale *reservation.PartnerSale
}

// BookedExtra is a selected additional service with the price it had when booked.
type BookedExtra struct {
	ID    int64
	Price money.Cents
}

// utcPtr is a nullable time read back, in UTC.
func utcPtr(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	u := t.Time.UTC()
	return &u
}

// InsertReservation inserts a PENDIENTE reservation and its additional services,
// and returns the stored record (built from what was written: no read-back).
func (tx ReservationsTx) InsertReservation(ctx context.Context, r NewReservation) (reservation.Reservation, error) {
	out := reservation.Reservation{
		ReservationDate: tx.Now, Entry: Time(r.Entry), Status: reservation.Pending, TotalPrice: r.TotalPrice,
		Notes: r.Notes, Spot: r.Spot, CustomerID: r.CustomerID, VehicleID: r.VehicleID, MainServiceID: r.MainServiceID,
		UpdatedAt: tx.Now, Contact: r.Contact, BookedBy: r.BookedBy, Language: r.Language, Sale: r.Sale,
	}
	var partner, rate *int64
	var partnerRef *string
	if r.Sale != nil {
		partner, partnerRef, rate = &r.Sale.PartnerID, &r.Sale.Reference, &r.Sale.RateBP
		out.Channel = reservation.ChannelOf(r.BookedBy, r.Sale.PartnerID)
	} else {
		out.Channel = reservation.ChannelOf(r.BookedBy, 0)
	}
	if out.Language == "" {
		out.Language = "es" // the column's default (migration 0023)
	}
	if r.Claimed {
		out.ClaimedAt = &out.ReservationDate
	}
	var name, email, phone, bookedBy *string
	if r.Contact != nil {
		name, email, phone = &r.Contact.FullName, r.Contact.Email, r.Contact.Phone
	}
	if r.BookedBy != "" {
		b := string(r.BookedBy)
		bookedBy = &b
	}
	out.Exit = optTime(r.Exit)
	if r.ID != 0 {
		return tx.queueReservation(ctx, r, out, name, email, phone, bookedBy, partner, partnerRef, rate)
	}
	// docs/manage-booking.md#booking-reference: a random reference, unique by the database's index. A collision
	// (one in 2^40 per stored booking) inserts nothing and draws again; ON CONFLICT
	// on the reference alone, so that any other violation still refuses the insert.
	for attempt := 0; ; attempt++ {
		out.Reference = reservation.NewReference()
		err := tx.QueryRow(ctx, `INSERT INTO reservation
			(reservation_date, entry_date, exit_date, status, total_price_cents, is_paid, notes, cod_parking_spot,
			 id_customer, id_vehicle, id_main_service, updated_at, contact_name, contact_email, contact_phone, booked_by, reference, claimed_at, language,
			 channel, id_partner, partner_reference, commission_bp)
			VALUES ($1, $2, $3, 'PENDIENTE', $4, $5, $6, $7, $8, $9, $10, $1, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
			ON CONFLICT (reference) DO NOTHING
			RETURNING id_reservation`,
			tx.Now, out.Entry, out.Exit, int64(r.TotalPrice), false, r.Notes, r.Spot,
			r.CustomerID, r.VehicleID, r.MainServiceID, name, email, phone, bookedBy, out.Reference, out.ClaimedAt, out.Language,
			out.Channel, partner, partnerRef, rate).Scan(&out.ID)
		if err == nil {
			break
		}
		if !noRows(err) || attempt >= maxReferenceDraws {
			return out, fmt.Errorf("insert reservation: %w", err)
		}
	}
	if err := tx.insertExtras(ctx, out.ID, r.Extras); err != nil {
		return out, err
	}
	return out, nil
}

// ReplaceReservationExtras makes the reservation's additional services exactly extras.
func (tx ReservationsTx) ReplaceReservationExtras(ctx context.Context, reservationID int64, extras []BookedExtra) error {
	if _, err := tx.Exec(ctx, `DELETE FROM reservation_additional_service WHERE id_reservation = $1`, reservationID); err != nil {
		return fmt.Errorf("clear additional services of %d: %w", reservationID, err)
	}
	return tx.insertExtras(ctx, reservationID, extras)
}

func (tx ReservationsTx) insertExtras(ctx context.Context, reservationID int64, extras []BookedExtra) error {
	for _, e := range extras {
		if err := tx.Queue(ctx, database.Stmt{Query: insertExtraSQL, Args: []any{reservationID, e.ID, int64(e.Price)},
			What: fmt.Sprintf("add additional service %d to %d", e.ID, reservationID)}); err != nil {
			return err
		}
	}
	return nil
}

const insertExtraSQL = `INSERT INTO reservation_additional_service (id_reservation, id_additional_service, price_cents)
			VALUES ($1, $2, $3) ON CONFLICT (id_reservation, id_additional_service) DO NOTHING`

const reservationColumns = `r.id_reservation, r.reservation_date, r.entry_date, r.exit_date, r.status, r.total_price_cents,
	r.is_paid, r.payment_method, r.notes, r.cod_parking_spot, r.id_customer, r.id_vehicle, r.id_main_service, r.updated_at,
	r.contact_name, r.contact_email, r.contact_phone, r.booked_by, r.reference, r.checked_in_at, r.keys_handed_over, r.claimed_at,
	r.checked_out_at, r.booked_exit_date, r.booked_price_cents, r.language, r.arrived_at,
	r.channel, r.id_partner, r.partner_reference, r.commission_bp`

type rowScanner interface{ Scan(dest ...any) error }

func scanReservation(row rowScanner) (reservation.Reservation, error) {
	var r reservation.Reservation
	var exit, checkedIn, claimed, checkedOut, bookedExit, arrived sql.NullTime
	var bookedPrice, partner, rate sql.NullInt64
	var partnerRef sql.NullString
	var method, notes, spot, cName, cEmail, cPhone, bookedBy, ref sql.NullString
	var status string
	err := row.Scan(&r.ID, &r.ReservationDate, &r.Entry, &exit, &status, &r.TotalPrice,
		&r.IsPaid, &method, &notes, &spot, &r.CustomerID, &r.VehicleID, &r.MainServiceID, &r.UpdatedAt,
		&cName, &cEmail, &cPhone, &bookedBy, &ref, &checkedIn, &r.KeysHandedOver, &claimed, &checkedOut, &bookedExit, &bookedPrice, &r.Language, &arrived,
		&r.Channel, &partner, &partnerRef, &rate)
	if err != nil {
		return r, err
	}
	r.CheckedInAt, r.CheckedOutAt, r.BookedExit = utcPtr(checkedIn), utcPtr(checkedOut), utcPtr(bookedExit)
	if bookedPrice.Valid {
		p := money.Cents(bookedPrice.Int64)
		r.BookedPrice = &p
	}
	r.Reference = ref.String
	if partner.Valid {
		r.Sale = &reservation.PartnerSale{PartnerID: partner.Int64, Reference: partnerRef.String, RateBP: rate.Int64}
	}
	r.ClaimedAt, r.ArrivedAt = utcPtr(claimed), utcPtr(arrived)
	if cPhone.Valid { // contact_name and contact_phone are set together (migration 0007)
		r.Contact = &reservation.Contact{FullName: cName.String, Phone: &cPhone.String}
		if cEmail.Valid {
			r.Contact.Email = &cEmail.String
		}
	}
	r.BookedBy = reservation.BookedBy(bookedBy.String)
	r.Status = reservation.Status(status)
	if exit.Valid {
		t := exit.Time.UTC()
		r.Exit = &t
	}
	if method.Valid {
		m := reservation.PaymentMethod(method.String)
		r.PaymentMethod = &m
	}
	if notes.Valid {
		r.Notes = &notes.String
	}
	if spot.Valid {
		r.Spot = &spot.String
	}
	r.ReservationDate = r.ReservationDate.UTC()
	r.Entry = r.Entry.UTC()
	r.UpdatedAt = r.UpdatedAt.UTC()
	return r, nil
}

// Reservation reads one reservation by id; ErrNotFound if there is none.
func (s Reservations) Reservation(ctx context.Context, id int64) (reservation.Reservation, error) {
	r, err := scanReservation(s.QueryRow(ctx, `SELECT `+reservationColumns+` FROM reservation r WHERE r.id_reservation = $1`, id))
	if err != nil {
		return r, fmt.Errorf("reservation %d: %w", id, notFound(err))
	}
	return r, nil
}

// Reservation reads one reservation inside the transaction; ErrNotFound if there is none.
func (tx ReservationsTx) Reservation(ctx context.Context, id int64) (reservation.Reservation, error) {
	r, err := scanReservation(tx.QueryRow(ctx, `SELECT `+reservationColumns+` FROM reservation r WHERE r.id_reservation = $1`, id))
	if err != nil {
		return r, fmt.Errorf("reservation %d: %w", id, notFound(err))
	}
	return r, nil
}

// ReservationExtras lists the additional services booked on a reservation with the
// price each had when booked, and its name.
func (s Reservations) ReservationExtras(ctx context.Context, reservationID int64) ([]reservation.BookedExtraDetail, error) {
	return reservationExtras(ctx, s.Engine, reservationID)
}

// ReservationExtras is the same inside the transaction.
func (tx ReservationsTx) ReservationExtras(ctx context.Context, reservationID int64) ([]reservation.BookedExtraDetail, error) {
	return reservationExtras(ctx, tx, reservationID)
}

func reservationExtras(ctx context.Context, q database.Runner, reservationID int64) ([]reservation.BookedExtraDetail, error) {
	rows, err := q.Query(ctx, `SELECT a.id, a.name, ras.price_cents
		FROM reservation_additional_service ras JOIN additional_service a ON a.id = ras.id_additional_service
		WHERE ras.id_reservation = $1 ORDER BY a.id`, reservationID)
	if err != nil {
		return nil, fmt.Errorf("additional services of %d: %w", reservationID, err)
	}
	out := []reservation.BookedExtraDetail{}
	for rows.Next() {
		var e reservation.BookedExtraDetail
		if err := rows.Scan(&e.ID, &e.Name, &e.Price); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, e)
	}
	return out, closeRows(rows)
}

// LockReservation reads a reservation for a read-modify-write inside the transaction.
// PostgreSQL takes the row lock (FOR UPDATE) so a concurrent edit waits and then sees
// this one's result; SQLite needs nothing more, as its write transactions are
// IMMEDIATE and so already one at a time.
func (tx ReservationsTx) LockReservation(ctx context.Context, id int64) (reservation.Reservation, error) {
	q := `SELECT ` + reservationColumns + ` FROM reservation r WHERE r.id_reservation = $1`
	if tx.Dialect() == Postgres {
		q += ` FOR UPDATE`
	}
	r, err := scanReservation(tx.QueryRow(ctx, q, id))
	if err != nil {
		return r, fmt.Errorf("reservation %d: %w", id, notFound(err))
	}
	return r, nil
}

// Stay is the priced part of a reservation that edits replace: dates, main service,
// total and additional services.
type Stay struct {
	Entry         time.Time
	Exit          *time.Time
	MainServiceID int64
	TotalPrice    money.Cents
	Extras        []BookedExtra
}

// UpdateStay replaces a reservation's stay, provided its status is still status
// (the caller read it under LockReservation); it reports false when the status had
// changed, so the caller can refuse instead of overwriting a concurrent transition.
func (tx ReservationsTx) UpdateStay(ctx context.Context, id int64, status reservation.Status, st Stay) (bool, error) {
	exit := optTime(st.Exit)
	res, err := tx.Exec(ctx, `UPDATE reservation
		SET entry_date = $3, exit_date = $4, id_main_service = $5, total_price_cents = $6, updated_at = $7
		WHERE id_reservation = $1 AND status = $2`,
		id, string(status), Time(st.Entry), exit, st.MainServiceID, int64(st.TotalPrice), tx.Now)
	if err != nil {
		return false, fmt.Errorf("update stay of %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	return true, tx.ReplaceReservationExtras(ctx, id, st.Extras)
}

// PendingReservationsOf lists a customer's PENDIENTE reservations, read in the
// transaction (an erasure cancels them; their days are freed first).
func (tx ReservationsTx) PendingReservationsOf(ctx context.Context, customerID int64) ([]reservation.Reservation, error) {
	return tx.reservationsOf(ctx, "pending reservations", customerID, `r.status = 'PENDIENTE'`)
}

// reservationsOf reads, in the transaction, customerID's reservations that match
// the condition cond (SQL on reservation r), in id order; what names them in errors.
func (tx ReservationsTx) reservationsOf(ctx context.Context, what string, customerID int64, cond string) ([]reservation.Reservation, error) {
	return reservationList(ctx, tx, fmt.Sprintf("%s of %d", what, customerID), `SELECT `+reservationColumns+` FROM reservation r
		WHERE r.id_customer = $1 AND `+cond+` ORDER BY r.id_reservation`, customerID)
}

// Spots are physical (issue 4): a spot cannot be held by two reservations that are
// not terminal and whose stays [entry, exit) overlap; an open exit overlaps
// everything after its entry. PostgreSQL enforces it with the exclusion constraint
// reservation_spot_no_overlap (migration 0003); SQLite has one writer, so the check
// below, made inside the write transaction, is enough there.

// LockSpot serialises, until the transaction ends, the writers that assign spot, so
// that SpotConflict followed by the write is race-free on PostgreSQL as well (two
// transactions checking the same free spot at once would otherwise both see it
// free, and the loser would only learn from the constraint, without the name of
// the other reservation). SQLite write transactions are already one at a time.
func (tx ReservationsTx) LockSpot(ctx context.Context, spot string) error {
	if tx.Dialect() != Postgres || spot == "" {
		return nil
	}
	// The key space is shared with nothing else of ours but migrations' single
	// bigint key; hashtextextended gives a 64-bit key, the namespace string keeps
	// it apart from other uses.
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('parking-spot:' || $1, 0))`, spot); err != nil {
		return fmt.Errorf("lock spot %s: %w", spot, err)
	}
	return nil
}

// SpotHolder is the reservation that already holds a spot over an overlapping stay.
type SpotHolder struct {
	ID    int64
	Entry time.Time
	Exit  *time.Time
}

// SpotConflict returns the earliest reservation other than exclude that is not
// terminal, holds spot, and whose stay overlaps [entry, exit) (exit nil: open);
// ErrNotFound when the spot is free over that stay.
func (tx ReservationsTx) SpotConflict(ctx context.Context, spot string, entry time.Time, exit *time.Time, exclude int64) (SpotHolder, error) {
	return spotConflict(ctx, tx, spot, entry, exit, exclude)
}

// SpotConflict is the same outside a transaction, used to name the other
// reservation after the database refused a write (SQLSTATE 23P01).
func (s Reservations) SpotConflict(ctx context.Context, spot string, entry time.Time, exit *time.Time, exclude int64) (SpotHolder, error) {
	return spotConflict(ctx, s.Engine, spot, entry, exit, exclude)
}

// spotHolders is the reservation table as the holders of a spot are read from it,
// named as alias: on SQLite with reservation_spot (the pending and running stays)
// named, since its planner, without statistics, may take reservation_spot_used (every
// stay with a spot, the same columns) and read a spot's whole history.
func spotHolders(d Dialect, alias string) string {
	if d == SQLite {
		return "reservation " + alias + " INDEXED BY reservation_spot"
	}
	return "reservation " + alias
}

func spotConflict(ctx context.Context, q database.Runner, spot string, entry time.Time, exit *time.Time, exclude int64) (SpotHolder, error) {
	// Overlap of [a1, a2) and [b1, b2): a1 < b2 and b1 < a2, where a NULL end is +∞.
	// Two texts rather than "$4 IS NULL OR …", so each is a plain index range on
	// reservation_spot (cod_parking_spot, entry_date).
	query := `SELECT id_reservation, entry_date, exit_date FROM ` + spotHolders(q.Dialect(), "r") + `
		WHERE cod_parking_spot = $1 AND status IN ('PENDIENTE', 'EN CURSO') AND id_reservation <> $2
		  AND (exit_date IS NULL OR exit_date > $3)`
	args := []any{spot, exclude, Time(entry)}
	if exit != nil {
		query += ` AND entry_date < $4`
		args = append(args, Time(*exit))
	}
	query += ` ORDER BY entry_date, id_reservation LIMIT 1`
	var h SpotHolder
	var out sql.NullTime
	err := q.QueryRow(ctx, query, args...).Scan(&h.ID, &h.Entry, &out)
	if noRows(err) {
		return h, ErrNotFound
	}
	if err != nil {
		return h, fmt.Errorf("check spot %s: %w", spot, err)
	}
	h.Entry = h.Entry.UTC()
	h.Exit = timePtr(out)
	return h, nil
}

// timePtr turns a nullable timestamp into an optional UTC time.
func timePtr(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	u := t.Time.UTC()
	return &u
}
