package app_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The layout rules of docs/design.md#layout-rules, checked on the source so that a
// newcomer's map of the code stays true: small files, types of one job, and a web
// layer that never reaches the database.
const (
	maxFileLines       = 500
	maxExportedMethods = 40
	maxMethods         = 60
)

// goFiles lists the hand-written non-test Go files of the repository.
func goFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, root := range []string{"../../internal", "../../cmd", "../../bench"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 100 {
		t.Fatalf("found only %d Go files: is the test running from internal/app?", len(out))
	}
	return out
}

func TestNoFileOverFiveHundredLines(t *testing.T) {
	for _, path := range goFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "// Code generated") {
			continue
		}
		if n := strings.Count(string(data), "\n"); n > maxFileLines {
			t.Errorf("%s has %d lines (at most %d: split it along its seams)", path, n, maxFileLines)
		}
	}
}

func TestNoTypeCarriesTooManyMethods(t *testing.T) {
	type key struct{ dir, name string }
	exported, all := map[key]int{}, map[key]int{}
	for _, path := range goFiles(t) {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) == 0 {
				continue
			}
			name := receiverName(fn.Recv.List[0].Type)
			if name == "" {
				continue
			}
			k := key{filepath.Dir(path), name}
			all[k]++
			if fn.Name.IsExported() {
				exported[k]++
			}
		}
	}
	for k, n := range all {
		if n > maxMethods || exported[k] > maxExportedMethods {
			t.Errorf("%s.%s has %d methods, %d exported (at most %d and %d: split it by capability)",
				k.dir, k.name, n, exported[k], maxMethods, maxExportedMethods)
		}
	}
	if len(all) < 20 {
		t.Fatalf("counted only %d types with methods", len(all))
	}
}

func receiverName(e ast.Expr) string {
	switch v := e.(type) {
	case *ast.StarExpr:
		return receiverName(v.X)
	case *ast.IndexExpr:
		return receiverName(v.X)
	case *ast.IndexListExpr:
		return receiverName(v.X)
	case *ast.Ident:
		return v.Name
	}
	return ""
}

func TestWebLayerNeverImportsTheDatabase(t *testing.T) {
	checked := 0
	for _, path := range goFiles(t) {
		if !strings.Contains(filepath.ToSlash(path), "internal/web/") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == "parking/internal/store" || p == "parking/internal/database" {
				t.Errorf("%s imports %s: the web layer calls the operations, never the store", path, p)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no web file checked")
	}
}
