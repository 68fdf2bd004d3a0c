package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"parking/internal/database"
	"parking/internal/occupancy"
	"parking/internal/reservation"
)

// Sales partners (docs/partners.md): the partner rows, their keys (hashes only), and
// the reads of a partner's own bookings.

const partnerColumns = `id_partner, name, commission_bp, allotment, active`

func scanPartner(row rowScanner) (reservation.Partner, error) {
	var p reservation.Partner
	var allot sql.NullInt64
	if err := row.Scan(&p.ID, &p.Name, &p.CommissionBP, &allot, &p.Active); err != nil {
		return p, err
	}
	if allot.Valid {
		n := int(allot.Int64)
		p.Allotment = &n
	}
	return p, nil
}

// ListPartners lists every partner by name.
func (s Partners) ListPartners(ctx context.Context) ([]reservation.Partner, error) {
	return listRows(ctx, s, "partners", scanPartner, `SELECT `+partnerColumns+` FROM partner ORDER BY name, id_partner`)
}

// Partner reads one partner; ErrNotFound if there is none.
func (s Partners) Partner(ctx context.Context, id int64) (reservation.Partner, error) {
	p, err := scanPartner(s.QueryRow(ctx, `SELECT `+partnerColumns+` FROM partner WHERE id_partner = $1`, id))
	if err != nil {
		return p, fmt.Errorf("partner %d: %w", id, notFound(err))
	}
	return p, nil
}

// KeyPartner is the active partner whose live key has hash, with the key's id and
// when it was last used; ErrNotFound for an unknown or revoked key or an inactive
// partner.
func (s Partners) KeyPartner(ctx context.Context, hash string) (reservation.Partner, reservation.PartnerKey, error) {
	var k reservation.PartnerKey
	var used sql.NullTime
	var allot sql.NullInt64
	var p reservation.Partner
	err := s.QueryRow(ctx, `SELECT p.id_partner, p.name, p.commission_bp, p.allotment, p.active, k.id_key, k.last_used_at
		FROM partner_key k JOIN partner p ON p.id_partner = k.id_partner
		WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND p.active`, hash).
		Scan(&p.ID, &p.Name, &p.CommissionBP, &allot, &p.Active, &k.ID, &used)
	if err != nil {
		return p, k, fmt.Errorf("partner key: %w", notFound(err))
	}
	if allot.Valid {
		n := int(allot.Int64)
		p.Allotment = &n
	}
	k.PartnerID, k.LastUsedAt = p.ID, utcPtr(used)
	return p, k, nil
}

// PartnerKeys lists a partner's keys, the most recently used first (never used
// last, newest first among them).
func (s Partners) PartnerKeys(ctx context.Context, partnerID int64) ([]reservation.PartnerKey, error) {
	rows, err := s.Query(ctx, `SELECT id_key, prefix, created_at, last_used_at, revoked_at FROM partner_key
		WHERE id_partner = $1
		ORDER BY CASE WHEN last_used_at IS NULL THEN 1 ELSE 0 END, last_used_at DESC, created_at DESC, id_key DESC`, partnerID)
	if err != nil {
		return nil, fmt.Errorf("partner keys: %w", err)
	}
	var out []reservation.PartnerKey
	for rows.Next() {
		k := reservation.PartnerKey{PartnerID: partnerID}
		var used, revoked sql.NullTime
		if err := rows.Scan(&k.ID, &k.Prefix, &k.CreatedAt, &used, &revoked); err != nil {
			rows.Close()
			return nil, err
		}
		k.CreatedAt = k.CreatedAt.UTC()
		k.LastUsedAt, k.RevokedAt = utcPtr(used), utcPtr(revoked)
		out = append(out, k)
	}
	return out, closeRows(rows)
}

// PartnerReservation reads partner's reservation of its own reference;
// ErrNotFound if it has none (another partner's reference included).
func (s Partners) PartnerReservation(ctx context.Context, partnerID int64, ref string) (reservation.Reservation, error) {
	r, err := scanReservation(s.QueryRow(ctx, `SELECT `+reservationColumns+` FROM reservation r
		WHERE r.id_partner = $1 AND r.partner_reference = $2`, partnerID, ref))
	if err != nil {
		return r, fmt.Errorf("partner reservation: %w", notFound(err))
	}
	return r, nil
}

// StatementReservations lists partner's reservations whose entry is in [from, to),
// cancelled ones left out, by entry.
func (s Partners) StatementReservations(ctx context.Context, partnerID int64, from, to time.Time) ([]reservation.Reservation, error) {
	return reservationList(ctx, s, "partner statement", `SELECT `+reservationColumns+` FROM reservation r
		WHERE r.id_partner = $1 AND r.entry_date >= $2 AND r.entry_date < $3 AND r.status <> 'CANCELADA'
		ORDER BY r.entry_date, r.id_reservation`, partnerID, Time(from), Time(to))
}

// PartnerStays lists partner's active stays that may count on a day in [from, to)
// (start of the first day, start of the day after the last): entered before to,
// and leaving at or after from, without an exit, or still in the car park.
func (s Partners) PartnerStays(ctx context.Context, partnerID int64, from, to time.Time) ([]occupancy.Stay, error) {
	return partnerStays(ctx, s.Engine, partnerID, from, to)
}

// PartnerStays is PartnerStays inside the transaction, after LockPartner: every
// committed change of the partner's bookings is seen.
func (tx PartnersTx) PartnerStays(ctx context.Context, partnerID int64, from, to time.Time) ([]occupancy.Stay, error) {
	return partnerStays(ctx, tx.Tx, partnerID, from, to)
}

func partnerStays(ctx context.Context, q database.Runner, partnerID int64, from, to time.Time) ([]occupancy.Stay, error) {
	return listRows(ctx, q, "partner stays", scanStay, `SELECT entry_date, exit_date, status FROM reservation
		WHERE id_partner = $1 AND status IN ('PENDIENTE', 'EN CURSO') AND entry_date < $2
		AND (exit_date IS NULL OR exit_date >= $3 OR status = 'EN CURSO')`, partnerID, Time(to), Time(from))
}

// InsertPartner stores a new partner and returns its id.
func (tx PartnersTx) InsertPartner(ctx context.Context, p reservation.Partner) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, `INSERT INTO partner (name, commission_bp, allotment, active, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $5) RETURNING id_partner`, p.Name, p.CommissionBP, allotmentArg(p.Allotment), p.Active, tx.Now).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("insert partner: %w", err)
	}
	return id, nil
}

// UpdatePartner changes a partner's fields; ErrNotFound if there is none.
func (tx PartnersTx) UpdatePartner(ctx context.Context, p reservation.Partner) error {
	res, err := tx.Exec(ctx, `UPDATE partner SET name = $2, commission_bp = $3, allotment = $4, active = $5, updated_at = $6
		WHERE id_partner = $1`, p.ID, p.Name, p.CommissionBP, allotmentArg(p.Allotment), p.Active, tx.Now)
	if err != nil {
		return fmt.Errorf("update partner %d: %w", p.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("update partner %d: %w", p.ID, ErrNotFound)
	}
	return nil
}

func allotmentArg(a *int) any {
	if a == nil {
		return nil
	}
	return int64(*a)
}

// LockPartner reads partner id and holds it until the transaction ends: every
// change of its bookings' days takes this lock first, so a check of its allotment
// sees every change committed before and none can commit beside it (on PostgreSQL
// a row lock, across instances; SQLite has one writer). ErrNotFound if there is none.
// FOR NO KEY UPDATE, not FOR UPDATE: the reservation row the transaction inserted
// holds a key-share lock on the partner (its foreign key), and so may another
// booking's; FOR UPDATE would wait for each other's, a deadlock.
func (tx PartnersTx) LockPartner(ctx context.Context, id int64) (reservation.Partner, error) {
	q := `SELECT ` + partnerColumns + ` FROM partner WHERE id_partner = $1`
	if tx.Dialect() == Postgres {
		q += ` FOR NO KEY UPDATE`
	}
	p, err := scanPartner(tx.QueryRow(ctx, q, id))
	if err != nil {
		return p, fmt.Errorf("lock partner %d: %w", id, notFound(err))
	}
	return p, nil
}

// InsertPartnerKey stores a key's hash and shown prefix and returns its id.
func (tx PartnersTx) InsertPartnerKey(ctx context.Context, partnerID int64, hash, prefix string) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, `INSERT INTO partner_key (id_partner, key_hash, prefix, created_at) VALUES ($1, $2, $3, $4)
		RETURNING id_key`, partnerID, hash, prefix, tx.Now).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("insert partner key: %w", err)
	}
	return id, nil
}

// RevokePartnerKey revokes partner's key keyID; ErrNotFound if it has no such key
// (a key revoked before is revoked again without change).
func (tx PartnersTx) RevokePartnerKey(ctx context.Context, partnerID, keyID int64) error {
	res, err := tx.Exec(ctx, `UPDATE partner_key SET revoked_at = COALESCE(revoked_at, $3)
		WHERE id_partner = $1 AND id_key = $2`, partnerID, keyID, tx.Now)
	if err != nil {
		return fmt.Errorf("revoke partner key: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("revoke partner key %d: %w", keyID, ErrNotFound)
	}
	return nil
}

// TouchPartnerKey records that key keyID was used at the transaction's time.
func (tx PartnersTx) TouchPartnerKey(ctx context.Context, keyID int64) error {
	if _, err := tx.Exec(ctx, `UPDATE partner_key SET last_used_at = $2 WHERE id_key = $1`, keyID, tx.Now); err != nil {
		return fmt.Errorf("touch partner key: %w", err)
	}
	return nil
}
