package store

import (
	"database/sql/driver"
	"strings"
	"unicode"

	"modernc.org/sqlite"
)

// parking_contains(haystack, needle) is true when haystack contains needle, ignoring
// case the way SQLite's FTS5 trigram tokenizer does (Unicode lower case, accents
// kept). The history search tests candidate rows with it in SQL, so that a row
// read in date order matches exactly when the FTS5 index would have found it;
// SQLite's own LIKE folds ASCII letters only ("ÁLVARO" would not match "álvaro").
func init() {
	sqlite.MustRegisterDeterministicScalarFunction("parking_contains", 2, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		h, ok1 := args[0].(string)
		n, ok2 := args[1].(string)
		if !ok1 || !ok2 {
			return int64(0), nil
		}
		if strings.Contains(foldCase(h), foldCase(n)) {
			return int64(1), nil
		}
		return int64(0), nil
	})
}

func foldCase(s string) string { return strings.Map(unicode.ToLower, s) }
