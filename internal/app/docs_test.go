package app

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// repoRoot is the repository's root, seen from this package's directory.
var repoRoot = filepath.Join("..", "..")

// repoTextFiles calls fn with the slash path (relative to the root) and the content of
// every text file of the repository: .git, and files holding a NUL byte (images, PDFs,
// databases), are skipped.
func repoTextFiles(t *testing.T, fn func(path string, content []byte)) {
	t.Helper()
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 {
			return nil
		}
		rel, err := filepath.Rel(repoRoot, p)
		if err != nil {
			return err
		}
		fn(filepath.ToSlash(rel), b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The repository must be readable on its own: no file may send a reader to documents
// outside it (the rules the service follows are in docs/).
func TestNothingPointsOutsideTheRepository(t *testing.T) {
	// Built from pieces so that this file does not name them itself.
	outside := []string{"CONTR" + "ACT \u00a7", "CONTR" + "ACT.md", ".." + "/shared", "shared" + "/spec"}
	files := 0
	repoTextFiles(t, func(path string, content []byte) {
		files++
		sc := bufio.NewScanner(bytes.NewReader(content))
		sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			for _, s := range outside {
				if strings.Contains(line, s) {
					t.Errorf("%s:%d points outside the repository (%q): cite docs/<topic>.md#anchor instead\n\t%s", path, n, s, strings.TrimSpace(line))
				}
			}
		}
	})
	if files < 50 {
		t.Fatalf("only %d text files found under %s: is the walk at the repository's root?", files, repoRoot)
	}
}

var (
	// A citation of a docs file in code: docs/<topic>.md, optionally with #anchor.
	docCitation = regexp.MustCompile(`docs/([A-Za-z0-9_-]+(?:/[A-Za-z0-9_-]+)*\.md)(#[A-Za-z0-9_-]+)?`)
	// A Markdown link or image: [text](target).
	mdLink     = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)
	mdHeading  = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	inlineLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// anchorOf is the anchor GitHub gives a heading: the text without its markup, in lower
// case, only letters, digits, spaces, hyphens and underscores kept, spaces as hyphens.
func anchorOf(heading string) string {
	h := inlineLink.ReplaceAllString(heading, "$1")
	h = strings.ToLower(strings.TrimSpace(h))
	var b strings.Builder
	for _, r := range h {
		switch {
		case unicode.IsLetter(r), unicode.IsNumber(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// anchorsOf lists the anchors of a Markdown file's headings (fenced code is skipped;
// a repeated heading gets -1, -2…, as on GitHub).
func anchorsOf(content []byte) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	for _, line := range strings.Split(string(content), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		m := mdHeading.FindStringSubmatch(line)
		if fenced || m == nil {
			continue
		}
		a := anchorOf(m[2])
		if n := seen[a]; n > 0 {
			anchors[a+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// withoutFences drops fenced code blocks from Markdown, keeping the line count.
func withoutFences(content []byte) []string {
	lines := strings.Split(string(content), "\n")
	fenced := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			lines[i] = ""
			continue
		}
		if fenced {
			lines[i] = ""
		}
	}
	return lines
}

// Every docs link resolves: docs/<topic>.md#anchor cited in code, and every relative
// [text](x.md#anchor) link in docs/ and the README, names an existing file and, with an
// anchor, one of its headings.
func TestDocLinksResolve(t *testing.T) {
	md := map[string][]byte{} // slash path → content, every Markdown file
	var code []string
	contents := map[string][]byte{}
	repoTextFiles(t, func(path string, content []byte) {
		contents[path] = content
		switch {
		case strings.HasSuffix(path, ".md"):
			md[path] = content
		case strings.HasSuffix(path, ".go"), strings.HasSuffix(path, ".sql"), strings.HasSuffix(path, ".yaml"),
			strings.HasSuffix(path, ".js"), strings.HasSuffix(path, ".html"), strings.HasSuffix(path, ".css"),
			strings.HasSuffix(path, ".sh"), strings.HasSuffix(path, ".lua"):
			code = append(code, path)
		}
	})
	anchors := map[string]map[string]bool{}
	anchorSet := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		a := anchorsOf(md[path])
		anchors[path] = a
		return a
	}
	check := func(where, target, anchor string) {
		if _, ok := contents[target]; !ok {
			if _, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(target))); err != nil {
				t.Errorf("%s: %s does not exist", where, target)
				return
			}
		}
		if anchor != "" && strings.HasSuffix(target, ".md") && !anchorSet(target)[anchor] {
			t.Errorf("%s: %s has no heading with the anchor #%s", where, target, anchor)
		}
	}

	citations := 0
	for _, path := range code {
		for n, line := range strings.Split(string(contents[path]), "\n") {
			for _, m := range docCitation.FindAllStringSubmatch(line, -1) {
				citations++
				check(path+":"+strconv.Itoa(n+1), "docs/"+m[1], strings.TrimPrefix(m[2], "#"))
			}
		}
	}

	links := 0
	for path, content := range md {
		if path != "README.md" && !strings.HasPrefix(path, "docs/") {
			continue
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		for n, line := range withoutFences(content) {
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				links++
				file, anchor, _ := strings.Cut(target, "#")
				if file == "" {
					file = path
				} else {
					file = filepath.ToSlash(filepath.Clean(filepath.Join(dir, file)))
				}
				check(path+":"+strconv.Itoa(n+1), file, anchor)
			}
		}
	}
	if links < 20 {
		t.Fatalf("only %d relative links found in docs/ and README.md: is the walk at the repository's root?", links)
	}
	t.Logf("%d links in the docs, %d citations in code checked", links, citations)
}

// The anchors are computed as GitHub computes them.
func TestAnchorOf(t *testing.T) {
	for heading, want := range map[string]string{
		"Price rule":                                       "price-rule",
		"Retries: `Idempotency-Key`":                       "retries-idempotency-key",
		"The booking flow (`GET /booking`)":                "the-booking-flow-get-booking",
		"Every request's database work has a deadline":     "every-requests-database-work-has-a-deadline",
		"Full invoice (*factura completa*)":                "full-invoice-factura-completa",
		"The reminder the day before (`booking_reminder`)": "the-reminder-the-day-before-booking_reminder",
		"Dates and [time](dates.md)":                       "dates-and-time",
	} {
		if got := anchorOf(heading); got != want {
			t.Errorf("anchorOf(%q) = %q, want %q", heading, got, want)
		}
	}
	a := anchorsOf([]byte("# A\n## Routes\n```\n# not a heading\n```\n## Routes\n"))
	for _, want := range []string{"a", "routes", "routes-1"} {
		if !a[want] {
			t.Errorf("anchorsOf: no %q in %v", want, a)
		}
	}
	if a["not-a-heading"] {
		t.Errorf("anchorsOf read a heading inside fenced code")
	}
}

var (
	// sourcePath is a repository path to a source file as docs and comments name it:
	// internal/web/ui/routes.go, or short, from internal/: web/ui/routes.go, store/outbox.go.
	sourcePath = regexp.MustCompile(`(?:^|[\s(\x60'"\[])((?:internal/|cmd/|bench/|scripts/)?(?:[a-z0-9_]+/)+[a-z0-9_]+\.(?:go|html|js|css|sh))\b`)
	// bareGoFile is a Go file named without its directory, in a Go comment: a file of the
	// same package.
	bareGoFile = regexp.MustCompile(`(?:^|[\s(\x60'"])([a-z0-9_]+\.go)\b`)
)

// Docs and comments name files that exist: a file renamed or split leaves no reader
// looking for its old name (the README and docs/, every comment in Go, templates,
// scripts and styles).
func TestNamedSourceFilesExist(t *testing.T) {
	exists := func(rel string) bool {
		_, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(rel)))
		return err == nil
	}
	checked := 0
	repoTextFiles(t, func(path string, content []byte) {
		ext := filepath.Ext(path)
		isDoc := ext == ".md" && (path == "README.md" || strings.HasPrefix(path, "docs/"))
		if !isDoc && ext != ".go" && ext != ".html" && ext != ".js" && ext != ".css" && ext != ".sh" {
			return
		}
		for n, line := range strings.Split(string(content), "\n") {
			if ext == ".go" {
				i := strings.Index(line, "//")
				if i < 0 {
					continue
				}
				line = line[i:] // comments only: code names no files
			}
			for _, m := range sourcePath.FindAllStringSubmatch(line, -1) {
				p := m[1]
				checked++
				found := false
				for _, base := range []string{"", "internal/", "internal/web/", "internal/web/ui/", filepath.Dir(path) + "/", filepath.Dir(filepath.Dir(path)) + "/"} {
					found = found || exists(base+p)
				}
				if !found {
					t.Errorf("%s:%d names %s, which does not exist", path, n+1, p)
				}
			}
			if ext != ".go" {
				continue
			}
			for _, m := range bareGoFile.FindAllStringSubmatch(line, -1) {
				checked++
				if !exists(filepath.ToSlash(filepath.Join(filepath.Dir(path), m[1]))) {
					t.Errorf("%s:%d names %s, which is not a file of its package", path, n+1, m[1])
				}
			}
		}
	})
	if checked < 50 {
		t.Fatalf("only %d file names checked: is the walk at the repository's root?", checked)
	}
}

// declaredNames lists, per package name under internal/ (internal/web's too), every
// name its Go files declare: functions, methods, types, constants, variables and
// struct fields.
func declaredNames(t *testing.T) map[string]map[string]bool {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(repoRoot, "internal", "*"))
	if err != nil {
		t.Fatal(err)
	}
	web, _ := filepath.Glob(filepath.Join(repoRoot, "internal", "web", "*"))
	out := map[string]map[string]bool{}
	for _, dir := range append(dirs, web...) {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		names := map[string]bool{}
		for _, f := range files {
			parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(parsed, func(n ast.Node) bool {
				switch v := n.(type) {
				case *ast.FuncDecl:
					names[v.Name.Name] = true
				case *ast.TypeSpec:
					names[v.Name.Name] = true
				case *ast.ValueSpec:
					for _, id := range v.Names {
						names[id.Name] = true
					}
				case *ast.Field:
					for _, id := range v.Names {
						names[id.Name] = true
					}
				}
				return true
			})
		}
		if len(names) > 0 {
			out[filepath.Base(dir)] = names
		}
	}
	return out
}

// Docs and comments name code that exists: `store.Records`, `httpx.Kit.Fail`,
// `booking.Service.Start` in the README, docs/ and Go comments are declared in
// that package, so a rename leaves no reader looking for the old name.
func TestNamedIdentifiersExist(t *testing.T) {
	declared := declaredNames(t)
	var pkgs []string
	for p := range declared {
		pkgs = append(pkgs, regexp.QuoteMeta(p))
	}
	ref := regexp.MustCompile(`\b(` + strings.Join(pkgs, "|") + `)\.([A-Z]\w*)(?:\.([A-Z]\w*))?`)
	checked := 0
	repoTextFiles(t, func(path string, content []byte) {
		isDoc := strings.HasSuffix(path, ".md") && (path == "README.md" || strings.HasPrefix(path, "docs/"))
		isGo := strings.HasSuffix(path, ".go")
		if !isDoc && !isGo {
			return
		}
		for n, line := range strings.Split(string(content), "\n") {
			if isGo {
				i := strings.Index(line, "//")
				if i < 0 {
					continue
				}
				line = line[i:]
			}
			for _, m := range ref.FindAllStringSubmatch(line, -1) {
				checked++
				names := declared[m[1]]
				if !names[m[2]] || (m[3] != "" && !names[m[3]]) {
					t.Errorf("%s:%d names %s, which %s does not declare", path, n+1, m[0], m[1])
				}
			}
		}
	})
	if checked < 100 {
		t.Fatalf("only %d names checked: is the walk at the repository's root?", checked)
	}
}
