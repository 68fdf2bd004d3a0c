package database

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// BulkInsert inserts many rows into one table, in multi-row INSERT statements of
// a few thousand parameters on PostgreSQL (one prepared row at a time on SQLite), inside the caller's
// transaction. It is for loading generated data, not for the request path.
func (tx *Tx) BulkInsert(ctx context.Context, table string, columns []string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	head := "INSERT INTO " + table + " (" + strings.Join(columns, ", ") + ") VALUES "
	if tx.dialect == SQLite {
		// modernc's SQLite binds huge parameter lists slowly; one prepared
		// statement executed per row is several times faster there.
		ph := make([]string, len(columns))
		for i := range ph {
			ph[i] = "$" + strconv.Itoa(i+1)
		}
		stmt, err := tx.tx.PrepareContext(tx.c(ctx), head+"("+strings.Join(ph, ",")+")")
		if err != nil {
			return fmt.Errorf("bulk insert into %s: %w", table, err)
		}
		defer stmt.Close()
		for _, row := range rows {
			if _, err := stmt.ExecContext(ctx, row...); err != nil {
				return fmt.Errorf("bulk insert into %s: %w", table, err)
			}
		}
		return nil
	}
	per := 4000 / len(columns)
	for start := 0; start < len(rows); start += per {
		end := min(start+per, len(rows))
		var b strings.Builder
		b.WriteString(head)
		args := make([]any, 0, (end-start)*len(columns))
		n := 1
		for i, row := range rows[start:end] {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('(')
			for j := range columns {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteByte('$')
				b.WriteString(strconv.Itoa(n))
				n++
			}
			b.WriteByte(')')
			args = append(args, row...)
		}
		if _, err := tx.Exec(ctx, b.String(), args...); err != nil {
			return fmt.Errorf("bulk insert into %s: %w", table, err)
		}
	}
	return nil
}

// MaxID returns the largest id of a table's integer key column (0 when empty).
func (s *Engine) MaxID(ctx context.Context, table, column string) (int64, error) {
	var id *int64
	err := s.read.QueryRowContext(ctx, "SELECT MAX("+column+") FROM "+table).Scan(&id)
	if err != nil || id == nil {
		return 0, err
	}
	return *id, nil
}

// ResetSequences moves PostgreSQL identity sequences past the ids inserted
// explicitly by a bulk load; SQLite needs nothing.
func (s *Engine) ResetSequences(ctx context.Context) error {
	if s.dialect != Postgres {
		return nil
	}
	for _, t := range [][2]string{{"customer", "id_customer"}, {"vehicle", "id_vehicle"}, {"reservation", "id_reservation"}} {
		q := fmt.Sprintf(`SELECT setval(pg_get_serial_sequence('%s', '%s'), COALESCE((SELECT MAX(%s) FROM %s), 0) + 1, false)`, t[0], t[1], t[1], t[0])
		if _, err := s.write.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("reset sequence of %s: %w", t[0], err)
		}
	}
	return nil
}

// Analyze refreshes the planner's statistics after a bulk load.
func (s *Engine) Analyze(ctx context.Context) error {
	_, err := s.write.ExecContext(ctx, "ANALYZE")
	return err
}
