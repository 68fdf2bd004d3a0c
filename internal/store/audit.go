package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"parking/internal/audit"
	"parking/internal/database"
)

// auditChange is the stored form of one audit.Change (a JSON array in
// audit_entry.changes); the wire names live here, not on the domain type.
type auditChange struct {
	Field  string `json:"field"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// Audit records e in the transaction, with the actor ctx carries (audit.WithActor;
// audit.System when none) and the transaction's clock: the entry commits or rolls
// back with the change it describes. Every write operation calls it once per change
// (internal/audit explains the recipe).
func (tx *Tx) Audit(ctx context.Context, e audit.Entry) error {
	a := audit.ActorOr(ctx, audit.System)
	changes := make([]auditChange, len(e.Changes))
	for i, c := range e.Changes {
		changes[i] = auditChange(c)
	}
	body, err := json.Marshal(changes)
	if err != nil {
		return fmt.Errorf("audit %s %s: %w", e.Action, e.Entity, err)
	}
	var actorID *int64
	if a.ID != 0 {
		actorID = &a.ID
	}
	var actorEmail *string
	if a.Email != "" {
		actorEmail = &a.Email
	}
	var resID *int64
	if e.ReservationID != 0 {
		resID = &e.ReservationID
	}
	name := a.Name
	if name == "" {
		name = a.Email
	}
	// Queued: on PostgreSQL it goes out with the transaction's next round trip.
	return tx.Queue(ctx, database.Stmt{Query: `INSERT INTO audit_entry (at, actor_kind, actor_id, actor_name, actor_email, action, entity, entity_id, reservation_id, changes)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		Args: []any{Time(tx.Now), string(a.Kind), actorID, name, actorEmail, e.Action, e.Entity, e.EntityID, resID, string(body)},
		What: fmt.Sprintf("audit %s %s %s", e.Action, e.Entity, e.EntityID)})
}

// AuditFilter selects trail entries; zero fields do not filter. Person matches the
// actor: an account id when it is a number, else part of the actor's name or email
// (any case). From and To bound the time, [From, To).
type AuditFilter struct {
	Person        string
	ReservationID int64
	From, To      time.Time
	Limit, Offset int
}

const auditColumns = `id, at, actor_kind, actor_id, actor_name, actor_email, action, entity, entity_id, reservation_id, changes`

// AuditTrail lists the entries f selects, newest first, and how many there are in
// all.
func (s Records) AuditTrail(ctx context.Context, f AuditFilter) ([]audit.Record, int, error) {
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if p := strings.TrimSpace(f.Person); p != "" {
		if id, err := strconv.ParseInt(p, 10, 64); err == nil && id > 0 {
			where = append(where, "actor_id = "+arg(id))
		} else {
			pat := arg(likePattern(p))
			where = append(where, `(lower(actor_name) LIKE `+pat+` ESCAPE '\' OR lower(COALESCE(actor_email, '')) LIKE `+pat+` ESCAPE '\')`)
		}
	}
	if f.ReservationID != 0 {
		where = append(where, "reservation_id = "+arg(f.ReservationID))
	}
	if !f.From.IsZero() {
		where = append(where, "at >= "+arg(Time(f.From)))
	}
	if !f.To.IsZero() {
		where = append(where, "at < "+arg(Time(f.To)))
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	var total int
	if err := s.QueryRow(ctx, `SELECT COUNT(*) FROM audit_entry`+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("audit trail count: %w", err)
	}
	q := `SELECT ` + auditColumns + ` FROM audit_entry` + cond + ` ORDER BY id DESC`
	if f.Limit > 0 {
		q += " LIMIT " + arg(f.Limit) + " OFFSET " + arg(f.Offset)
	}
	rows, err := s.Generated().Query(ctx, q, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("audit trail: %w", err)
	}
	defer rows.Close()
	var out []audit.Record
	for rows.Next() {
		r, err := scanAudit(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("audit trail: %w", err)
	}
	return out, total, nil
}

func scanAudit(rows *sql.Rows) (audit.Record, error) {
	var r audit.Record
	var kind, changes string
	var actorID, resID sql.NullInt64
	var email nullString
	if err := rows.Scan(&r.ID, &r.At, &kind, &actorID, &r.Actor.Name, &email, &r.Action, &r.Entity, &r.EntityID, &resID, &changes); err != nil {
		return r, fmt.Errorf("audit trail: %w", err)
	}
	r.At = r.At.UTC()
	r.Actor.Kind, r.Actor.ID, r.Actor.Email = audit.Kind(kind), actorID.Int64, audit.Str(email.ptr())
	r.ReservationID = resID.Int64
	var cs []auditChange
	if err := json.Unmarshal([]byte(changes), &cs); err != nil {
		return r, fmt.Errorf("audit entry %d: %w", r.ID, err)
	}
	for _, c := range cs {
		r.Changes = append(r.Changes, audit.Change(c))
	}
	return r, nil
}

// personalFields are the audit fields that hold a person's data (the contact and
// the account's name, email and phone, the plate, free notes, photo labels). An
// erasure blanks them in the trail; the rest (dates, prices, states) stays for
// the accounting the reservations are kept for.
var personalFields = map[string]bool{
	"contact.full_name": true, "contact.email": true, "contact.phone": true,
	"customer.full_name": true, "customer.email": true, "customer.phone": true,
	"license_plate": true, "notes": true, "photo": true, "photo_salida": true,
}

// erasedValue replaces a personal value in the trail.
const erasedValue = "(eliminado)"
