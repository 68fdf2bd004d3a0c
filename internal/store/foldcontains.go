package store

import (
	"database/sql/driver"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
	"modernc.org/sqlite"
)

// parking_contains(haystack, needle) is true when haystack contains needle, ignoring
// case the way SQLite's FTS5 trigram tokenizer does (Unicode lower case, accents
// kept); parking_folds(haystack, needle) also ignores accents, as the customers'
// name index does since migration 0028 (remove_diacritics). The history search
// tests candidate rows with them in SQL, so that a row read in date order matches
// exactly when the FTS5 index would have found it; SQLite's own LIKE folds ASCII
// letters only ("ÁLVARO" would not match "álvaro").
func init() {
	register := func(name string, fold func(string) string) {
		sqlite.MustRegisterDeterministicScalarFunction(name, 2, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			h, ok1 := args[0].(string)
			n, ok2 := args[1].(string)
			if !ok1 || !ok2 {
				return int64(0), nil
			}
			if strings.Contains(fold(h), fold(n)) {
				return int64(1), nil
			}
			return int64(0), nil
		})
	}
	register("parking_contains", foldCase)
	register("parking_folds", foldAccents)
}

func foldCase(s string) string { return strings.Map(unicode.ToLower, s) }

// foldAccents is foldCase with the combining marks removed after canonical
// decomposition ("García" → "garcia", "Ñandú" → "nandu").
func foldAccents(s string) string {
	return strings.Map(func(c rune) rune {
		if unicode.Is(unicode.Mn, c) {
			return -1
		}
		return unicode.ToLower(c)
	}, norm.NFD.String(s))
}
