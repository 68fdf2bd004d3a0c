package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"parking/internal/database"

	"parking/internal/audit"
)

// Privacy (docs/privacy.md): the privacy notice acknowledgement and
// the optional marketing consent, each stored as the time it was given.

// SetReservationConsents records, at the transaction's time, the consents given
// with a booking; a false one is left unset.
func (tx PrivacyTx) SetReservationConsents(ctx context.Context, id int64, privacyAck, marketing bool) error {
	// Queued: on PostgreSQL it goes out with the transaction's next round trip.
	return tx.Queue(ctx, database.Stmt{Query: `UPDATE reservation SET
		privacy_ack_at = CASE WHEN $2 THEN $4 ELSE privacy_ack_at END,
		marketing_consent_at = CASE WHEN $3 THEN $4 ELSE marketing_consent_at END
		WHERE id_reservation = $1`, Args: []any{id, privacyAck, marketing, tx.Now},
		What: fmt.Sprintf("set consents of reservation %d", id)})
}

// SetCustomerConsents records the consents given at registration. The marketing
// consent is given or withdrawn as sent (nil: unchanged).
func (tx PrivacyTx) SetCustomerConsents(ctx context.Context, id int64, privacyAck bool, marketing *bool) error {
	set, withdraw := marketing != nil && *marketing, marketing != nil && !*marketing
	_, err := tx.Exec(ctx, `UPDATE customer SET
		privacy_ack_at = CASE WHEN $2 THEN $5 ELSE privacy_ack_at END,
		marketing_consent_at = CASE WHEN $3 THEN $5 WHEN $4 THEN NULL ELSE marketing_consent_at END
		WHERE id_customer = $1`, id, privacyAck, set, withdraw, tx.Now)
	if err != nil {
		return fmt.Errorf("set consents of customer %d: %w", id, err)
	}
	return nil
}

// PrivacyExtras is what the data export adds to the customer area: the consents,
// and per reservation its consents, photos and notifications (docs/privacy.md).
type PrivacyExtras struct {
	PrivacyAckAt, MarketingConsentAt, ErasedAt *time.Time
	Reservations                               map[int64]*ReservationPrivacy
	Identities                                 []SocialIdentity
}

// ReservationPrivacy is one reservation's consents, photos and notifications.
type ReservationPrivacy struct {
	PrivacyAckAt, MarketingConsentAt *time.Time
	Photos                           []PhotoRecord
	Notifications                    []NotificationRecord
}

// PhotoRecord is a stored photo of a vehicle.
type PhotoRecord struct {
	FilePath    string
	Description *string
	TakenAt     time.Time
}

// NotificationRecord is a notification about a reservation, with what it carried.
type NotificationRecord struct {
	Type, Status string
	Payload      string
	CreatedAt    time.Time
	SentAt       *time.Time
}

// PrivacyExtras reads the export's additions for a customer.
func (s Privacy) PrivacyExtras(ctx context.Context, customerID int64) (PrivacyExtras, error) {
	out := PrivacyExtras{Reservations: map[int64]*ReservationPrivacy{}}
	var ack, mkt, erased sql.NullTime
	if err := s.QueryRow(ctx, `SELECT privacy_ack_at, marketing_consent_at, erased_at FROM customer WHERE id_customer = $1`,
		customerID).Scan(&ack, &mkt, &erased); err != nil {
		return out, fmt.Errorf("privacy of customer %d: %w", customerID, notFound(err))
	}
	out.PrivacyAckAt, out.MarketingConsentAt, out.ErasedAt = timePtr(ack), timePtr(mkt), timePtr(erased)
	get := func(id int64) *ReservationPrivacy {
		if out.Reservations[id] == nil {
			out.Reservations[id] = &ReservationPrivacy{Photos: []PhotoRecord{}, Notifications: []NotificationRecord{}}
		}
		return out.Reservations[id]
	}
	err := eachRow(ctx, s, fmt.Sprintf("reservation consents of %d", customerID), func(rows *sql.Rows) error {
		var id int64
		var a, m sql.NullTime
		if err := rows.Scan(&id, &a, &m); err != nil {
			return err
		}
		rp := get(id)
		rp.PrivacyAckAt, rp.MarketingConsentAt = timePtr(a), timePtr(m)
		return nil
	}, `SELECT id_reservation, privacy_ack_at, marketing_consent_at FROM reservation WHERE id_customer = $1`, customerID)
	if err != nil {
		return out, err
	}
	err = eachRow(ctx, s, fmt.Sprintf("photos of %d", customerID), func(rows *sql.Rows) error {
		var id int64
		var p PhotoRecord
		var desc nullString
		if err := rows.Scan(&id, &p.FilePath, &desc, &p.TakenAt); err != nil {
			return err
		}
		p.Description, p.TakenAt = desc.ptr(), p.TakenAt.UTC()
		get(id).Photos = append(get(id).Photos, p)
		return nil
	}, `SELECT p.id_reservation, p.file_path, p.description, p.taken_at
		FROM photo_evidence p JOIN reservation r ON r.id_reservation = p.id_reservation
		WHERE r.id_customer = $1 ORDER BY p.taken_at, p.id_photo`, customerID)
	if err != nil {
		return out, err
	}
	err = eachRow(ctx, s, fmt.Sprintf("notifications of %d", customerID), func(rows *sql.Rows) error {
		var id int64
		var n NotificationRecord
		var sent sql.NullTime
		if err := rows.Scan(&id, &n.Type, &n.Status, &n.Payload, &n.CreatedAt, &sent); err != nil {
			return err
		}
		n.CreatedAt, n.SentAt = n.CreatedAt.UTC(), timePtr(sent)
		get(id).Notifications = append(get(id).Notifications, n)
		return nil
	}, `SELECT n.id_reservation, n.type, n.status, n.payload, n.created_at, n.sent_at
		FROM notification n JOIN reservation r ON r.id_reservation = n.id_reservation
		WHERE r.id_customer = $1 ORDER BY n.created_at, n.id`, customerID)
	if err != nil {
		return out, err
	}
	if out.Identities, err = Accounts(s).SocialIdentitiesOf(ctx, customerID); err != nil {
		return out, err
	}
	return out, nil
}

// ErasedName is the name an erased customer keeps: the reservations and receipts
// stay for accounting, without the person.
const ErasedName = "Cliente eliminado"

// ErasedCustomer is what an erasure did, for the log and the photo files.
type ErasedCustomer struct {
	Reservations int
	Cancelled    int
	Vehicles     int      // vehicles whose plate was replaced
	PhotoFiles   []string // storage keys of the uploaded photos whose rows were deleted
}

// CustomerHasStayInProgress reports whether a vehicle of the customer is in the
// car park (a reservation EN CURSO).
func (tx PrivacyTx) CustomerHasStayInProgress(ctx context.Context, customerID int64) (bool, error) {
	var n int
	err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM reservation WHERE id_customer = $1 AND status = 'EN CURSO'`, customerID).Scan(&n)
	return n > 0, err
}

// EraseCustomer anonymises a customer at once, in the caller's transaction
// (docs/privacy.md): name replaced, email, phone, password and consents cleared,
// the account turned into a booking-flow record nobody can log in to; sessions
// ended, API tokens revoked, provider links removed; its reservations keep dates,
// services, prices, payment and receipt but lose the contact and the notes; pending
// ones are cancelled; notifications about them lose their payload (pending ones
// are skipped); photo rows are deleted (their files are returned for the caller to
// delete after commit); vehicles used by nobody else get an anonymous plate and
// default brand, model and colour, and the customer's other vehicle links go.
func (tx PrivacyTx) EraseCustomer(ctx context.Context, customerID int64) (ErasedCustomer, error) {
	var out ErasedCustomer
	// Uploaded photos' storage keys are listed before their rows go (photos given
	// as an address have no file of ours).
	rows, err := tx.Query(ctx, `SELECT p.storage_key FROM photo_evidence p JOIN reservation r ON r.id_reservation = p.id_reservation
		WHERE r.id_customer = $1 AND p.storage_key IS NOT NULL`, customerID)
	if err != nil {
		return out, fmt.Errorf("photos of %d: %w", customerID, err)
	}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			rows.Close()
			return out, err
		}
		out.PhotoFiles = append(out.PhotoFiles, p)
	}
	if err := closeRows(rows); err != nil {
		return out, err
	}
	// Password reset links (docs/manage-booking.md#password-reset) go, and the password_reset and
	// email_verification notifications that carried the account's name and email
	// (they concern no reservation, so they are found by the email in their payload)
	// are emptied like the others.
	var email sql.NullString
	if err := tx.QueryRow(ctx, `SELECT email FROM customer WHERE id_customer = $1`, customerID).Scan(&email); err != nil {
		return out, fmt.Errorf("erase customer %d: %w", customerID, notFound(err))
	}
	if _, err := tx.Exec(ctx, `DELETE FROM password_reset WHERE id_customer = $1`, customerID); err != nil {
		return out, fmt.Errorf("erase customer %d: reset links: %w", customerID, err)
	}
	if email.Valid && email.String != "" {
		if _, err := tx.Exec(ctx, `UPDATE notification SET payload = '{}',
				status = CASE WHEN status = 'pending' THEN 'skipped' ELSE status END
			WHERE type IN ('password_reset', 'email_verification') AND id_reservation IS NULL AND lower(payload) LIKE $1 ESCAPE '\'`,
			likePattern(`"email":"`+email.String+`"`)); err != nil {
			return out, fmt.Errorf("erase customer %d: reset notifications: %w", customerID, err)
		}
	}
	// Every statement takes $1 the customer and, if it has one, $2 the
	// transaction's time.
	const ofCustomer = `(SELECT id_reservation FROM reservation WHERE id_customer = $1)`
	steps := []struct {
		what, sql string
		count     *int
	}{
		{"revoke tokens", `UPDATE api_token SET revoked_at = $2 WHERE id_customer = $1 AND revoked_at IS NULL`, nil},
		{"end sessions", `DELETE FROM web_session WHERE id_customer = $1`, nil},
		{"unlink identities", `DELETE FROM social_identity WHERE id_customer = $1`, nil},
		{"drop pending links", `DELETE FROM social_pending_link WHERE id_customer = $1`, nil},
		{"cancel pending", `UPDATE reservation SET status = 'CANCELADA', cod_parking_spot = NULL, updated_at = $2
			WHERE id_customer = $1 AND status = 'PENDIENTE'`, &out.Cancelled},
		{"anonymise reservations", `UPDATE reservation SET contact_name = NULL, contact_phone = NULL, contact_email = NULL,
			notes = NULL, marketing_consent_at = NULL, updated_at = $2 WHERE id_customer = $1`, &out.Reservations},
		{"skip notifications", `UPDATE notification SET status = 'skipped', last_error = 'datos del cliente eliminados'
			WHERE status = 'pending' AND id_reservation IN ` + ofCustomer + ``, nil},
		{"empty notifications", `UPDATE notification SET payload = '{}' WHERE id_reservation IN ` + ofCustomer + ``, nil},
		{"delete photos", `DELETE FROM photo_evidence WHERE id_reservation IN ` + ofCustomer + ``, nil},
		// A plate identifies a person (the vehicle register): a vehicle nobody else
		// uses or booked gets an anonymous plate; one shared with another customer
		// is only unlinked.
		{"anonymise vehicles", `UPDATE vehicle SET license_plate = 'ANON' || CAST(id_vehicle AS TEXT),
			brand = 'Desconocida', model = 'Desconocido', color = 'No color'
			WHERE id_vehicle IN (SELECT id_vehicle FROM customer_vehicle WHERE id_customer = $1
			                     UNION SELECT id_vehicle FROM reservation WHERE id_customer = $1)
			  AND NOT EXISTS (SELECT 1 FROM customer_vehicle cv WHERE cv.id_vehicle = vehicle.id_vehicle AND cv.id_customer <> $1)
			  AND NOT EXISTS (SELECT 1 FROM reservation r WHERE r.id_vehicle = vehicle.id_vehicle AND r.id_customer <> $1)
			 `, &out.Vehicles},
		{"unlink vehicles", `DELETE FROM customer_vehicle WHERE id_customer = $1`, nil},
		{"anonymise customer", `UPDATE customer SET full_name = '` + ErasedName + `', email = NULL, phone = NULL,
			password_hash = NULL, type = 'NO-REGISTRADO', marketing_consent_at = NULL, erased_at = $2
			WHERE id_customer = $1`, nil},
	}
	for _, st := range steps {
		args := []any{customerID}
		if strings.Contains(st.sql, "$2") {
			args = append(args, tx.Now)
		}
		res, err := tx.Exec(ctx, st.sql, args...)
		if err != nil {
			return out, fmt.Errorf("erase customer %d: %s: %w", customerID, st.what, err)
		}
		if st.count != nil {
			n, _ := res.RowsAffected()
			*st.count = int(n)
		}
	}
	// The audit trail keeps what happened, not who it happened to.
	if err := tx.eraseAuditPersonalData(ctx, customerID); err != nil {
		return out, fmt.Errorf("erase customer %d: %w", customerID, err)
	}
	return out, nil
}

// CustomerErased reports whether the customer's data was erased already.
func (tx PrivacyTx) CustomerErased(ctx context.Context, customerID int64) (bool, error) {
	var at sql.NullTime
	err := tx.QueryRow(ctx, `SELECT erased_at FROM customer WHERE id_customer = $1`, customerID).Scan(&at)
	return at.Valid, notFound(err)
}

// CustomerMarketingConsent returns when the customer gave the marketing consent
// (nil: not given, or withdrawn).
func (s Privacy) CustomerMarketingConsent(ctx context.Context, customerID int64) (*time.Time, error) {
	var at sql.NullTime
	err := s.QueryRow(ctx, `SELECT marketing_consent_at FROM customer WHERE id_customer = $1`, customerID).Scan(&at)
	if err != nil {
		return nil, fmt.Errorf("marketing consent of %d: %w", customerID, notFound(err))
	}
	return timePtr(at), nil
}

// eraseAuditPersonalData blanks customerID's personal data in the audit trail
// (privacy erasure): the entries the customer made name "Cliente eliminado"
// without an email, and the entries about their reservations lose the personal
// fields' values. Inside the erasure's transaction.
func (tx PrivacyTx) eraseAuditPersonalData(ctx context.Context, customerID int64) error {
	if _, err := tx.Exec(ctx, `UPDATE audit_entry SET actor_name = $2, actor_email = NULL
		WHERE actor_id = $1 AND actor_kind = $3`, customerID, ErasedName, string(audit.KindCustomer)); err != nil {
		return fmt.Errorf("erase the trail's actor %d: %w", customerID, err)
	}
	rows, err := tx.Query(ctx, `SELECT id, changes FROM audit_entry
		WHERE reservation_id IN (SELECT id_reservation FROM reservation WHERE id_customer = $1)`, customerID)
	if err != nil {
		return fmt.Errorf("the trail of customer %d: %w", customerID, err)
	}
	type entry struct {
		id      int64
		changes string
	}
	var blanked []entry
	for rows.Next() {
		var e entry
		if err := rows.Scan(&e.id, &e.changes); err != nil {
			rows.Close()
			return err
		}
		var cs []auditChange
		if err := json.Unmarshal([]byte(e.changes), &cs); err != nil {
			rows.Close()
			return fmt.Errorf("audit entry %d: %w", e.id, err)
		}
		touched := false
		for i := range cs {
			if !personalFields[cs[i].Field] {
				continue
			}
			for _, v := range []*string{&cs[i].Before, &cs[i].After} {
				if *v != "" && *v != erasedValue {
					*v, touched = erasedValue, true
				}
			}
		}
		if touched {
			body, err := json.Marshal(cs)
			if err != nil {
				rows.Close()
				return err
			}
			blanked = append(blanked, entry{e.id, string(body)})
		}
	}
	if err := closeRows(rows); err != nil {
		return err
	}
	for _, e := range blanked {
		if _, err := tx.Exec(ctx, `UPDATE audit_entry SET changes = $2 WHERE id = $1`, e.id, e.changes); err != nil {
			return fmt.Errorf("audit entry %d: %w", e.id, err)
		}
	}
	return nil
}
