package store

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"
)

// normaliseStep is the schema_migrations name of the one-off rewrite of stored
// phones and plates that follows migration 0006 (see NormaliseStored).
const normaliseStep = "0006_normalise.data"

// normaliseLockKey serialises the rewrite between instances starting at once (PostgreSQL).
const normaliseLockKey = 7_340_120_552

// Normalisers put a stored phone or plate in its canonical form (docs/input-rules.md); an
// error means the stored text cannot be read as one. The store does not know the
// rules: the caller passes internal/input's.
type Normalisers struct {
	Phone func(string) (string, error)
	Plate func(string) (string, error)
}

// NormaliseReport says what the rewrite did.
type NormaliseReport struct {
	AlreadyDone bool // an earlier start did it; nothing was read
	Rewritten   int  // rows given their canonical form
	Merged      int  // rows merged into an older one and deleted
	Conflicts   int  // rows kept apart and listed (normalisation_conflict)
}

// Reasons recorded in normalisation_conflict.
const (
	ConflictAccount    = "registered-account" // the phone is shared with an account: merging would expose it
	ConflictType       = "vehicle-type"       // the plate is stored with two vehicle types
	ConflictUnreadable = "unreadable"         // the stored text is not a phone (plate) under the rules
)

// Kinds of normalisation_conflict rows.
const (
	conflictKindCust = "customer"
	conflictKindVeh  = "vehicle"
)

// NormaliseStored rewrites the phones and plates stored before docs/input-rules.md's
// canonical forms existed, once (recorded in schema_migrations as
// '0006_normalise.data'), in one transaction. Rows that become equal are merged
// only when that exposes nobody: customers that are all NO-REGISTRADO, vehicles
// all of one type. Their reservations and customer–vehicle links move to the oldest
// row and the others are deleted, each merge logged. Any other collision (an
// account involved, two vehicle types) is kept apart: one row takes the canonical
// form (one already in it, else the oldest account, else the oldest row), the
// others keep their old form, and each is recorded in normalisation_conflict for
// staff to resolve by hand (`parking duplicates list`). Stored text that cannot be
// read is left as it is and recorded the same way.
func (s *Store) NormaliseStored(ctx context.Context, n Normalisers, log *slog.Logger) (NormaliseReport, error) {
	var rep NormaliseReport
	err := inTx(ctx, s.Engine, func(tx *Tx) error {
		rep = NormaliseReport{}
		if tx.Dialect() == Postgres {
			if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", normaliseLockKey); err != nil {
				return err
			}
		}
		var done int
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM schema_migrations WHERE name = $1", normaliseStep).Scan(&done); err != nil {
			return err
		}
		if done > 0 {
			rep.AlreadyDone = true
			return nil
		}
		nz := normaliser{tx: tx, log: log, rep: &rep}
		if err := nz.normalise(ctx, customerIdentity, n.Phone); err != nil {
			return fmt.Errorf("normalise phones: %w", err)
		}
		if err := nz.normalise(ctx, vehicleIdentity, n.Plate); err != nil {
			return fmt.Errorf("normalise plates: %w", err)
		}
		_, err := tx.Exec(ctx, "INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)", normaliseStep, tx.Now)
		return err
	})
	if err != nil {
		return NormaliseReport{}, err
	}
	return rep, nil
}

type normaliser struct {
	tx  *Tx
	log *slog.Logger
	rep *NormaliseReport
}

// storedRow is a customer (value: phone, class: type) or a vehicle (value: plate,
// class: type), oldest first.
type storedRow struct {
	id           int64
	value, class string
}

// groups reads rows and groups them by canonical value, in the order of each
// group's oldest row; unreadable rows are recorded and left out.
func (nz normaliser) groups(ctx context.Context, kind, query string, canon func(string) (string, error)) ([][]storedRow, map[string]string, error) {
	rows, err := nz.tx.Query(ctx, query)
	if err != nil {
		return nil, nil, err
	}
	var all []storedRow
	for rows.Next() {
		var r storedRow
		if err := rows.Scan(&r.id, &r.value, &r.class); err != nil {
			rows.Close()
			return nil, nil, err
		}
		all = append(all, r)
	}
	if err := closeRows(rows); err != nil {
		return nil, nil, err
	}
	index := map[string]int{}
	var out [][]storedRow
	normal := map[string]string{} // stored value → canonical value
	for _, r := range all {
		c, err := canon(r.value)
		if err != nil {
			nz.log.Warn("stored value cannot be normalised; kept as it is and listed for staff", "kind", kind, "id", r.id, "value", r.value)
			if err := nz.conflict(ctx, kind, nil, r, "", ConflictUnreadable); err != nil {
				return nil, nil, err
			}
			continue
		}
		normal[r.value] = c
		i, ok := index[c]
		if !ok {
			i = len(out)
			index[c] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], r)
	}
	return out, normal, nil
}

func (nz normaliser) conflict(ctx context.Context, kind string, kept *int64, r storedRow, normal, reason string) error {
	nz.rep.Conflicts++
	_, err := nz.tx.Exec(ctx, `INSERT INTO normalisation_conflict (kind, kept_id, other_id, stored_value, normal_value, reason, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, kind, kept, r.id, r.value, normal, reason, nz.tx.Now)
	return err
}

// identity is one kind of stored identity the normalisation rewrites: customers by
// phone, vehicles by plate. The two differ only in these facts.
type identity struct {
	kind, field   string                   // conflict kind; the log attribute of the value
	query         string                   // id, stored value, class (customer type or vehicle type), oldest first
	update        string                   // sets the canonical value ($2) on one row ($1)
	mergeable     func(g []storedRow) bool // may the group be merged without exposing anybody?
	preferred     func(r storedRow) bool   // which row keeps the canonical value when it cannot merge
	reason        string                   // why a collision was kept apart
	merge         func(nz normaliser, ctx context.Context, keeper, from int64) error
	merged, apart string // log messages
}

var customerIdentity = identity{
	kind: conflictKindCust, field: "phone",
	query:  `SELECT id_customer, phone, type FROM customer WHERE phone IS NOT NULL ORDER BY created_at, id_customer`,
	update: `UPDATE customer SET phone = $2 WHERE id_customer = $1`,
	mergeable: func(g []storedRow) bool {
		for _, r := range g {
			if r.class != "NO-REGISTRADO" {
				return false
			}
		}
		return true
	},
	preferred: func(r storedRow) bool { return r.class != "NO-REGISTRADO" },
	reason:    ConflictAccount,
	merge:     normaliser.mergeCustomer,
	merged:    "customers with one phone merged into the oldest",
	apart:     "customers share a phone but one is an account: kept apart and listed for staff",
}

var vehicleIdentity = identity{
	kind: conflictKindVeh, field: "license_plate",
	query:  `SELECT id_vehicle, license_plate, type FROM vehicle ORDER BY created_at, id_vehicle`,
	update: `UPDATE vehicle SET license_plate = $2 WHERE id_vehicle = $1`,
	mergeable: func(g []storedRow) bool {
		for _, r := range g {
			if !sameType(r.class, g[0].class) {
				return false
			}
		}
		return true
	},
	preferred: func(storedRow) bool { return false },
	reason:    ConflictType,
	merge:     normaliser.mergeVehicle,
	merged:    "vehicles with one plate merged into the oldest",
	apart:     "vehicles share a plate with different types: kept apart and listed for staff",
}

// normalise gives every row of one identity its canonical value: rows that collapse
// into one are merged into the oldest when that exposes nobody, and otherwise kept
// apart and listed (normalisation_conflict).
func (nz normaliser) normalise(ctx context.Context, id identity, canon func(string) (string, error)) error {
	groups, normal, err := nz.groups(ctx, id.kind, id.query, canon)
	if err != nil {
		return err
	}
	for _, g := range groups {
		value := normal[g[0].value]
		switch {
		case len(g) == 1:
		case id.mergeable(g):
			keeper := g[0]
			var merged []int64
			for _, r := range g[1:] {
				if err := id.merge(nz, ctx, keeper.id, r.id); err != nil {
					return err
				}
				merged = append(merged, r.id)
			}
			nz.rep.Merged += len(merged)
			nz.log.Info(id.merged, "id_"+id.kind, keeper.id, "merged", merged, id.field, value)
			g = g[:1]
		default:
			holder := holderOf(g, value, id.preferred)
			for _, r := range g {
				if r.id == holder.id {
					continue
				}
				nz.log.Warn(id.apart, "id_"+id.kind, r.id, "kept_id_"+id.kind, holder.id, id.field, value)
				if err := nz.conflict(ctx, id.kind, &holder.id, r, value, id.reason); err != nil {
					return err
				}
			}
			g = []storedRow{holder}
		}
		if g[0].value != value {
			if _, err := nz.tx.Exec(ctx, id.update, g[0].id, value); err != nil {
				return err
			}
			nz.rep.Rewritten++
		}
	}
	return nil
}

// holderOf picks the row of a collision that takes the canonical value: one that
// has it already, else the oldest preferred one, else the oldest.
func holderOf(g []storedRow, canonical string, preferred func(storedRow) bool) storedRow {
	for _, r := range g {
		if r.value == canonical {
			return r
		}
	}
	for _, r := range g {
		if preferred(r) {
			return r
		}
	}
	return g[0]
}

func sameType(a, b string) bool { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) }

// mergeCustomer moves customer from's reservations and vehicle links to keeper and
// deletes from.
func (nz normaliser) mergeCustomer(ctx context.Context, keeper, from int64) error {
	steps := []string{
		`UPDATE reservation SET id_customer = $1 WHERE id_customer = $2`,
		`INSERT INTO customer_vehicle (id_customer, id_vehicle, created_at)
			SELECT CAST($1 AS BIGINT), cv.id_vehicle, cv.created_at FROM customer_vehicle cv
			WHERE cv.id_customer = $2 AND NOT EXISTS (
				SELECT 1 FROM customer_vehicle k WHERE k.id_customer = $1 AND k.id_vehicle = cv.id_vehicle)`,
	}
	return nz.run(ctx, steps, `DELETE FROM customer WHERE id_customer = $1`, keeper, from)
}

// mergeVehicle moves vehicle from's reservations and customer links to keeper and
// deletes from.
func (nz normaliser) mergeVehicle(ctx context.Context, keeper, from int64) error {
	steps := []string{
		`UPDATE reservation SET id_vehicle = $1 WHERE id_vehicle = $2`,
		`INSERT INTO customer_vehicle (id_customer, id_vehicle, created_at)
			SELECT cv.id_customer, CAST($1 AS BIGINT), cv.created_at FROM customer_vehicle cv
			WHERE cv.id_vehicle = $2 AND NOT EXISTS (
				SELECT 1 FROM customer_vehicle k WHERE k.id_vehicle = $1 AND k.id_customer = cv.id_customer)`,
	}
	return nz.run(ctx, steps, `DELETE FROM vehicle WHERE id_vehicle = $1`, keeper, from)
}

// run runs the moves (parameters keeper, from), then the delete (from).
func (nz normaliser) run(ctx context.Context, moves []string, del string, keeper, from int64) error {
	for _, q := range moves {
		if _, err := nz.tx.Exec(ctx, q, keeper, from); err != nil {
			return fmt.Errorf("merge %d into %d: %w", from, keeper, err)
		}
	}
	if _, err := nz.tx.Exec(ctx, del, from); err != nil {
		return fmt.Errorf("merge %d into %d: %w", from, keeper, err)
	}
	return nil
}

// NormalisationConflict is a collision the rewrite could not merge, still standing:
// the other row still exists with its old value.
type NormalisationConflict struct {
	ID          int64
	Kind        string // customer or vehicle
	KeptID      *int64 // the row holding the canonical value; nil for an unreadable value
	OtherID     int64  // the row left with its old value
	StoredValue string
	NormalValue string
	Reason      string
	OtherLabel  string // the other row's customer name and type, or vehicle type
	KeptLabel   string
	CreatedAt   time.Time
}

// NormalisationConflicts lists the collisions still standing, oldest first: a
// conflict whose row was deleted or given another phone or plate is resolved.
func (s *Store) NormalisationConflicts(ctx context.Context) ([]NormalisationConflict, error) {
	rows, err := s.Query(ctx, `SELECT n.id, n.kind, n.kept_id, n.other_id, n.stored_value, n.normal_value, n.reason, n.created_at,
			COALESCE(oc.full_name || ' (' || oc.type || ')', ov.type, ''), COALESCE(kc.full_name || ' (' || kc.type || ')', kv.type, '')
		FROM normalisation_conflict n
		LEFT JOIN customer oc ON n.kind = 'customer' AND oc.id_customer = n.other_id
		LEFT JOIN vehicle ov ON n.kind = 'vehicle' AND ov.id_vehicle = n.other_id
		LEFT JOIN customer kc ON n.kind = 'customer' AND kc.id_customer = n.kept_id
		LEFT JOIN vehicle kv ON n.kind = 'vehicle' AND kv.id_vehicle = n.kept_id
		WHERE (n.kind = 'customer' AND oc.phone = n.stored_value) OR (n.kind = 'vehicle' AND ov.license_plate = n.stored_value)
		ORDER BY n.id`)
	if err != nil {
		return nil, fmt.Errorf("list normalisation conflicts: %w", err)
	}
	var out []NormalisationConflict
	for rows.Next() {
		var c NormalisationConflict
		if err := rows.Scan(&c.ID, &c.Kind, &c.KeptID, &c.OtherID, &c.StoredValue, &c.NormalValue, &c.Reason, &c.CreatedAt,
			&c.OtherLabel, &c.KeptLabel); err != nil {
			rows.Close()
			return nil, fmt.Errorf("list normalisation conflicts: %w", err)
		}
		out = append(out, c)
	}
	return out, closeRows(rows)
}
