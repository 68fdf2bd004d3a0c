package store

import "database/sql"

// closeRows closes rows and returns the iteration error, if any.
func closeRows(rows *sql.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}

// nullString scans a nullable text column into an optional string.
type nullString struct{ sql.NullString }

func (n nullString) ptr() *string {
	if !n.Valid {
		return nil
	}
	s := n.String
	return &s
}
