package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"parking/internal/database"

	"parking/internal/reservation"
)

// CustomerArea reads a customer's profile, linked vehicles and reservations with
// their additional services. On PostgreSQL the reads share one REPEATABLE READ
// snapshot, so a reservation cannot appear without its extras; on SQLite a read
// transaction in WAL mode is a snapshot already.
func (s Customers) CustomerArea(ctx context.Context, customerID int64) (reservation.CustomerArea, error) {
	opts := sql.TxOptions{ReadOnly: true}
	if s.Dialect() == Postgres {
		opts.Isolation = sql.LevelRepeatableRead
	}
	var out reservation.CustomerArea
	q, err := s.BeginRead(ctx, opts)
	if err != nil {
		return out, fmt.Errorf("customer area %d: %w", customerID, err)
	}
	defer q.Rollback()

	if out.Customer, err = scanCustomer(q.QueryRow(ctx, `SELECT `+customerColumns+` FROM customer WHERE id_customer = $1`, customerID)); err != nil {
		return out, fmt.Errorf("customer area %d: %w", customerID, err)
	}
	if out.Vehicles, err = customerVehicles(ctx, q, customerID); err != nil {
		return out, err
	}
	if out.Reservations, err = customerReservations(ctx, q, customerID); err != nil {
		return out, err
	}
	return out, q.Commit()
}

func customerVehicles(ctx context.Context, q database.Runner, customerID int64) ([]reservation.Vehicle, error) {
	rows, err := q.Query(ctx, `SELECT v.id_vehicle, v.license_plate, v.brand, v.model, v.color, v.type
		FROM customer_vehicle cv JOIN vehicle v ON v.id_vehicle = cv.id_vehicle
		WHERE cv.id_customer = $1 ORDER BY cv.created_at, v.id_vehicle`, customerID)
	if err != nil {
		return nil, fmt.Errorf("vehicles of customer %d: %w", customerID, err)
	}
	out := []reservation.Vehicle{}
	for rows.Next() {
		var v reservation.Vehicle
		if err := rows.Scan(&v.ID, &v.LicensePlate, &v.Brand, &v.Model, &v.Color, &v.Type); err != nil {
			rows.Close()
			return nil, fmt.Errorf("vehicles of customer %d: %w", customerID, err)
		}
		out = append(out, v)
	}
	return out, closeRows(rows)
}

// customerReservations reads the reservations (one query, newest entry first, the
// reservation_customer index) and then all their extras (one more query), instead
// of one query per reservation.
func customerReservations(ctx context.Context, q database.Runner, customerID int64) ([]reservation.CustomerReservation, error) {
	rows, err := q.Query(ctx, `SELECT `+reservationColumns+`,
		v.id_vehicle, v.license_plate, v.brand, v.model, v.color, v.type, m.name
		FROM reservation r
		JOIN vehicle v ON v.id_vehicle = r.id_vehicle
		JOIN main_service m ON m.id_main_service = r.id_main_service
		WHERE r.id_customer = $1
		ORDER BY r.entry_date DESC, r.id_reservation DESC`, customerID)
	if err != nil {
		return nil, fmt.Errorf("reservations of customer %d: %w", customerID, err)
	}
	out := []reservation.CustomerReservation{}
	index := map[int64]int{}
	for rows.Next() {
		var cr reservation.CustomerReservation
		var v reservation.Vehicle
		r, err := scanReservation(scanFunc(func(dest ...any) error {
			return rows.Scan(append(dest, &v.ID, &v.LicensePlate, &v.Brand, &v.Model, &v.Color, &v.Type, &cr.MainServiceName)...)
		}))
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("reservations of customer %d: %w", customerID, err)
		}
		cr.Reservation, cr.Vehicle, cr.Extras = r, v, []reservation.BookedExtraDetail{}
		index[r.ID] = len(out)
		out = append(out, cr)
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("reservations of customer %d: %w", customerID, err)
	}
	if len(out) == 0 {
		return out, nil
	}
	rows, err = q.Query(ctx, `SELECT ras.id_reservation, a.id, a.name, ras.price_cents
		FROM reservation r
		JOIN reservation_additional_service ras ON ras.id_reservation = r.id_reservation
		JOIN additional_service a ON a.id = ras.id_additional_service
		WHERE r.id_customer = $1 ORDER BY ras.id_reservation, a.id`, customerID)
	if err != nil {
		return nil, fmt.Errorf("additional services of customer %d: %w", customerID, err)
	}
	for rows.Next() {
		var rid int64
		var e reservation.BookedExtraDetail
		if err := rows.Scan(&rid, &e.ID, &e.Name, &e.Price); err != nil {
			rows.Close()
			return nil, fmt.Errorf("additional services of customer %d: %w", customerID, err)
		}
		if i, ok := index[rid]; ok { // a reservation inserted between the two reads (SQLite) is skipped
			out[i].Extras = append(out[i].Extras, e)
		}
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("additional services of customer %d: %w", customerID, err)
	}
	rows, err = q.Query(ctx, `SELECT p.id_photo, p.id_reservation, p.file_path, p.description, p.taken_at, p.phase
		FROM reservation r JOIN photo_evidence p ON p.id_reservation = r.id_reservation
		WHERE r.id_customer = $1 AND p.storage_key IS NOT NULL ORDER BY p.id_reservation, p.id_photo`, customerID)
	if err != nil {
		return nil, fmt.Errorf("photos of customer %d: %w", customerID, err)
	}
	for rows.Next() {
		var p reservation.Photo
		var desc sql.NullString
		if err := rows.Scan(&p.ID, &p.ReservationID, &p.FilePath, &desc, &p.TakenAt, &p.Phase); err != nil {
			rows.Close()
			return nil, fmt.Errorf("photos of customer %d: %w", customerID, err)
		}
		if desc.Valid {
			p.Description = &desc.String
		}
		if i, ok := index[p.ReservationID]; ok {
			out[i].Photos = append(out[i].Photos, p)
		}
	}
	return out, closeRows(rows)
}

// scanFunc adapts a function to rowScanner, to scan a reservation plus extra columns.
type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }

// CancelOwnReservation is the customer cancel (docs/reservations.md#transitions):
// PENDIENTE → CANCELADA with the spot cleared, in one conditional update that only
// matches the owner's PENDIENTE reservation. It reports whether it matched; when it
// did not, the caller reads the row to say why.
func (tx CustomersTx) CancelOwnReservation(ctx context.Context, id, customerID int64) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE reservation
		SET status = 'CANCELADA', cod_parking_spot = NULL, updated_at = $3
		WHERE id_reservation = $1 AND id_customer = $2 AND status = 'PENDIENTE'`, id, customerID, tx.Now)
	if err != nil {
		return false, fmt.Errorf("cancel reservation %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("cancel reservation %d: %w", id, err)
	}
	return n == 1, nil
}

// ProfileUpdate is a customer's new personal data (already validated).
type ProfileUpdate struct {
	FullName string
	Email    *string
	Phone    *string
	// EmailChanged clears the email's verification (a new email is unverified).
	EmailChanged bool
	// Language is the account's language; "" stores NULL (not chosen).
	Language string
}

// UpdateProfile stores a customer's name, email and phone. An email used by another
// account or a phone used by any other customer is a unique violation.
func (tx CustomersTx) UpdateProfile(ctx context.Context, customerID int64, p ProfileUpdate) error {
	var lang *string
	if p.Language != "" {
		lang = &p.Language
	}
	res, err := tx.Exec(ctx, `UPDATE customer SET full_name = $2, email = $3, phone = $4,
		email_verified_at = CASE WHEN $5 THEN NULL ELSE email_verified_at END, language = $6 WHERE id_customer = $1`,
		customerID, p.FullName, p.Email, p.Phone, p.EmailChanged, lang)
	if err != nil {
		return fmt.Errorf("update profile of %d: %w", customerID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("update profile of %d: %w", customerID, ErrNotFound)
	}
	return nil
}

// EmailTakenByOtherAccount reports whether another account (ADMIN or REGISTRADO)
// logs in with this email, ignoring case. Only a check for a precise message: the
// unique index customer_account_email is what decides.
func (tx CustomersTx) EmailTakenByOtherAccount(ctx context.Context, customerID int64, email string) (bool, error) {
	var n int
	err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM customer
		WHERE lower(email) = lower($1) AND type <> 'NO-REGISTRADO' AND email IS NOT NULL AND id_customer <> $2`,
		email, customerID).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("check email: %w", err)
	}
	return n > 0, nil
}

// PhoneTakenByOther reports whether another customer (of any type) has this phone.
func (tx CustomersTx) PhoneTakenByOther(ctx context.Context, customerID int64, phone string) (bool, error) {
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM customer WHERE phone = $1 AND id_customer <> $2`,
		phone, customerID).Scan(&n); err != nil {
		return false, fmt.Errorf("check phone: %w", err)
	}
	return n > 0, nil
}

// SetPasswordHash replaces a customer's password hash, provided it is still oldHash
// (a compare-and-swap: of two concurrent changes made with the same current
// password, one wins). It reports whether it replaced it.
func (tx CustomersTx) SetPasswordHash(ctx context.Context, customerID int64, oldHash, newHash string) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE customer SET password_hash = $3 WHERE id_customer = $1 AND password_hash = $2`,
		customerID, oldHash, newHash)
	if err != nil {
		return false, fmt.Errorf("set password of %d: %w", customerID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("set password of %d: %w", customerID, err)
	}
	return n == 1, nil
}

// RevokeLoginTokens revokes the API tokens a customer obtained with email and
// password (not tied to a web session): after a password change, they were obtained
// with a credential that no longer holds.
func (tx CustomersTx) RevokeLoginTokens(ctx context.Context, customerID int64) error {
	_, err := tx.Exec(ctx, `UPDATE api_token SET revoked_at = $2
		WHERE id_customer = $1 AND session_hash IS NULL AND revoked_at IS NULL`, customerID, tx.Now)
	if err != nil {
		return fmt.Errorf("revoke tokens of %d: %w", customerID, err)
	}
	return nil
}

// SetEmailVerified marks a customer's email verified at, provided the stored email
// is still email (ignoring case): a link sent to an earlier email verifies nothing.
// An email already verified keeps its first time. It reports whether it matched.
func (tx CustomersTx) SetEmailVerified(ctx context.Context, customerID int64, email string, at time.Time) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE customer SET email_verified_at = COALESCE(email_verified_at, $3)
		WHERE id_customer = $1 AND lower(email) = lower($2)`, customerID, email, Time(at))
	return applied(res, err, "verify email of %d", customerID)
}

// MarkVerificationSent records that a verification link is sent to the customer now,
// unless one was sent after notBefore; it reports whether it recorded it (false:
// too soon, send nothing). One conditional update, so two concurrent requests
// cannot both send.
func (tx CustomersTx) MarkVerificationSent(ctx context.Context, customerID int64, notBefore time.Time) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE customer SET email_verify_sent_at = $2
		WHERE id_customer = $1 AND (email_verify_sent_at IS NULL OR email_verify_sent_at <= $3)`,
		customerID, tx.Now, Time(notBefore))
	return applied(res, err, "verification sent to %d", customerID)
}

// UnclaimedReservationsOf lists the reservations on a customer's record that its
// account neither booked while signed in nor has claimed: the candidates of a claim
// (reservation.Claimable decides which qualify).
func (tx CustomersTx) UnclaimedReservationsOf(ctx context.Context, customerID int64) ([]reservation.Reservation, error) {
	return ReservationsTx(tx).reservationsOf(ctx, "unclaimed reservations", customerID,
		`r.claimed_at IS NULL AND (r.booked_by IS NULL OR r.booked_by <> 'account')`)
}

// ClaimQualifying claims, in tx, every reservation on customerID's record that the
// account neither booked nor claimed yet and that qualifies by the rule given
// (reservation.Claimable: the store only reads and writes). It returns how many.
func (tx CustomersTx) ClaimQualifying(ctx context.Context, customerID int64, qualifies func(reservation.Reservation, reservation.Customer) bool) (int, error) {
	c, err := tx.Customer(ctx, customerID)
	if err != nil {
		return 0, err
	}
	rs, err := tx.UnclaimedReservationsOf(ctx, customerID)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range rs {
		if !qualifies(r, c) {
			continue
		}
		if _, err := tx.ClaimReservation(ctx, r.ID, customerID); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// ClaimReservation makes reservation id the account customerID's own: it moves to
// that customer (a claim with the manage token may come from another record) and
// gets claimed_at, kept if it had one. It reports whether the reservation exists.
func (tx CustomersTx) ClaimReservation(ctx context.Context, id, customerID int64) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE reservation SET id_customer = $2, claimed_at = COALESCE(claimed_at, $3),
		updated_at = CASE WHEN id_customer = $2 THEN updated_at ELSE $3 END
		WHERE id_reservation = $1`, id, customerID, tx.Now)
	return applied(res, err, "claim reservation %d", id)
}

// DetachReservations moves reservations off a customer record onto a new
// NO-REGISTRADO customer named name, without a phone yet (the caller gives it the
// phone once the old record frees it), and links their vehicles to it. It returns
// the new customer's id. An account's erasure uses it for the bookings on its record
// that the account does not see: they are someone else's and must survive it.
func (tx CustomersTx) DetachReservations(ctx context.Context, rs []reservation.Reservation, name string) (int64, error) {
	var id int64
	if err := tx.QueryRow(ctx, `INSERT INTO customer (full_name, type, created_at) VALUES ($1, 'NO-REGISTRADO', $2)
		RETURNING id_customer`, name, tx.Now).Scan(&id); err != nil {
		return 0, fmt.Errorf("detach reservations: %w", err)
	}
	for _, r := range rs {
		if _, err := tx.Exec(ctx, `UPDATE reservation SET id_customer = $2, updated_at = $3 WHERE id_reservation = $1`,
			r.ID, id, tx.Now); err != nil {
			return 0, fmt.Errorf("detach reservation %d: %w", r.ID, err)
		}
		if err := tx.LinkCustomerVehicle(ctx, id, r.VehicleID); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// SetCustomerPhone gives a customer a phone (stored form; unique among customers).
func (tx CustomersTx) SetCustomerPhone(ctx context.Context, customerID int64, phone string) error {
	if _, err := tx.Exec(ctx, `UPDATE customer SET phone = $2 WHERE id_customer = $1`, customerID, phone); err != nil {
		return fmt.Errorf("set phone of %d: %w", customerID, err)
	}
	return nil
}

// NewCustomer is what a booking flow knows of a customer it may have to create.
type NewCustomer struct {
	FullName string
	Phone    string
	Email    *string
}

// FindOrCreateCustomerByPhone returns the customer with this phone, creating a
// NO-REGISTRADO one if there is none. It is race-free: the unique index on phone
// decides, and a concurrent insert of the same phone is read back after it commits.
func (tx CustomersTx) FindOrCreateCustomerByPhone(ctx context.Context, c NewCustomer) (reservation.Customer, bool, error) {
	out, err := scanCustomer(tx.QueryRow(ctx, `INSERT INTO customer (full_name, phone, email, type, created_at)
		VALUES ($1, $2, $3, 'NO-REGISTRADO', $4)
		ON CONFLICT (phone) DO NOTHING
		RETURNING `+customerColumns, c.FullName, c.Phone, c.Email, tx.Now))
	if err == nil {
		return out, true, nil
	}
	if !errors.Is(err, ErrNotFound) {
		return out, false, fmt.Errorf("insert customer: %w", err)
	}
	out, err = scanCustomer(tx.QueryRow(ctx, `SELECT `+customerColumns+` FROM customer WHERE phone = $1`, c.Phone))
	if err != nil {
		return out, false, fmt.Errorf("find customer by phone: %w", err)
	}
	return out, false, nil
}

// FindOrCreateVehicleByPlate returns the vehicle with this plate, creating it from v
// if there is none. The returned vehicle is the stored one, so the caller can see
// whether its type differs from the one asked for.
func (tx CustomersTx) FindOrCreateVehicleByPlate(ctx context.Context, v reservation.Vehicle) (reservation.Vehicle, bool, error) {
	out := v
	err := tx.QueryRow(ctx, `INSERT INTO vehicle (license_plate, brand, model, color, type, created_at)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (license_plate) DO NOTHING
		RETURNING id_vehicle`, v.LicensePlate, v.Brand, v.Model, v.Color, v.Type, tx.Now).Scan(&out.ID)
	if err == nil {
		return out, true, nil
	}
	if !noRows(err) {
		return out, false, fmt.Errorf("insert vehicle: %w", err)
	}
	err = tx.QueryRow(ctx, `SELECT id_vehicle, license_plate, brand, model, color, type FROM vehicle WHERE license_plate = $1`,
		v.LicensePlate).Scan(&out.ID, &out.LicensePlate, &out.Brand, &out.Model, &out.Color, &out.Type)
	if err != nil {
		return out, false, fmt.Errorf("find vehicle by plate: %w", err)
	}
	return out, false, nil
}

// LinkCustomerVehicle records that the customer uses the vehicle, once.
func (tx CustomersTx) LinkCustomerVehicle(ctx context.Context, customerID, vehicleID int64) error {
	_, err := tx.Exec(ctx, `INSERT INTO customer_vehicle (id_customer, id_vehicle, created_at) VALUES ($1, $2, $3)
		ON CONFLICT (id_customer, id_vehicle) DO NOTHING`, customerID, vehicleID, tx.Now)
	if err != nil {
		return fmt.Errorf("link customer %d and vehicle %d: %w", customerID, vehicleID, err)
	}
	return nil
}

// Customer reads one customer by id.
func (s Customers) Customer(ctx context.Context, id int64) (reservation.Customer, error) {
	return scanCustomer(s.QueryRow(ctx, `SELECT `+customerColumns+` FROM customer WHERE id_customer = $1`, id))
}

// Customer reads one customer by id inside the transaction.
func (tx CustomersTx) Customer(ctx context.Context, id int64) (reservation.Customer, error) {
	return scanCustomer(tx.QueryRow(ctx, `SELECT `+customerColumns+` FROM customer WHERE id_customer = $1`, id))
}

const customerColumns = `id_customer, full_name, phone, email, type, password_hash, created_at, email_verified_at, language`

func scanCustomer(row rowScanner) (reservation.Customer, error) {
	var c reservation.Customer
	var phone, email, hash, lang sql.NullString
	var verified sql.NullTime
	var typ string
	if err := row.Scan(&c.ID, &c.FullName, &phone, &email, &typ, &hash, &c.CreatedAt, &verified, &lang); err != nil {
		return c, fmt.Errorf("customer: %w", notFound(err))
	}
	c.EmailVerifiedAt = utcPtr(verified)
	c.Language = lang.String
	c.Type = reservation.CustomerType(typ)
	if phone.Valid {
		c.Phone = &phone.String
	}
	if email.Valid {
		c.Email = &email.String
	}
	if hash.Valid {
		c.PasswordHash = &hash.String
	}
	c.CreatedAt = c.CreatedAt.UTC()
	return c, nil
}

// Vehicle reads one vehicle by id.
func (s Customers) Vehicle(ctx context.Context, id int64) (reservation.Vehicle, error) {
	return vehicleByID(ctx, s, id)
}

// Vehicle reads one vehicle by id inside the transaction.
func (tx CustomersTx) Vehicle(ctx context.Context, id int64) (reservation.Vehicle, error) {
	return vehicleByID(ctx, tx, id)
}

func vehicleByID(ctx context.Context, q database.Runner, id int64) (reservation.Vehicle, error) {
	var v reservation.Vehicle
	err := q.QueryRow(ctx, `SELECT id_vehicle, license_plate, brand, model, color, type FROM vehicle WHERE id_vehicle = $1`, id).
		Scan(&v.ID, &v.LicensePlate, &v.Brand, &v.Model, &v.Color, &v.Type)
	if err != nil {
		return v, fmt.Errorf("vehicle %d: %w", id, notFound(err))
	}
	return v, nil
}
