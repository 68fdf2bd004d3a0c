package httpx_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// httpx knows no operation: of the operation packages it imports only account
// (sessions); refusals that carry more than a message are read through fault.
func TestHTTPXImportsNoOperation(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	forbidden := []string{"booking", "catalog", "handover", "records", "ops", "occupancy", "store", "database", "notify", "pricing", "reservation"}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, op := range forbidden {
				if path == "parking/internal/"+op {
					t.Errorf("%s imports %s", f, path)
				}
			}
		}
	}
}
