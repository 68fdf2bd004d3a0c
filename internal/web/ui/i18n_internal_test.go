package ui

import (
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"text/template"
	"text/template/parse"
	"unicode"

	"parking/internal/i18n"
)

// literalAllowed are the texts a template may write as they are, in every
// language: the brand mark.
var literalAllowed = map[string]bool{"P": true}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// parsedTemplates parses every template file as text (the structure is what
// matters here) with the pages' functions.
func parsedTemplates(t *testing.T) map[string]*template.Template {
	t.Helper()
	funcs := (&base{}).templateFuncs(i18n.Default)
	names, err := fs.Glob(templateFiles, "templates/*.html")
	if err != nil || len(names) < 30 {
		t.Fatalf("templates: %v (%d files)", err, len(names))
	}
	out := map[string]*template.Template{}
	for _, n := range names {
		b, err := templateFiles.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		tmpl, err := template.New(n).Funcs(template.FuncMap(funcs)).Parse(string(b))
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		out[n] = tmpl
	}
	return out
}

// walk calls f with every node of a parse tree.
func walk(n parse.Node, f func(parse.Node)) {
	if n == nil {
		return
	}
	f(n)
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			walk(c, f)
		}
	case *parse.IfNode:
		walk(n.List, f)
		walk(n.ElseList, f)
	case *parse.RangeNode:
		walk(n.List, f)
		walk(n.ElseList, f)
	case *parse.WithNode:
		walk(n.List, f)
		walk(n.ElseList, f)
	case *parse.ActionNode:
		walk(n.Pipe, f)
	case *parse.PipeNode:
		if n == nil {
			return
		}
		for _, c := range n.Cmds {
			walk(c, f)
		}
	case *parse.CommandNode:
		for _, a := range n.Args {
			walk(a, f)
		}
	}
}

// flatten is a template's text with every action replaced by a marker (\x00),
// in the order the nodes come (both branches of an if), so that tags, attributes
// and the text between them can be told apart across actions.
func flatten(root parse.Node) string {
	var b strings.Builder
	var rec func(n parse.Node)
	rec = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				rec(c)
			}
		case *parse.TextNode:
			b.Write(n.Text)
		case *parse.IfNode:
			b.WriteByte(0)
			rec(n.List)
			rec(n.ElseList)
			b.WriteByte(0)
		case *parse.RangeNode:
			b.WriteByte(0)
			rec(n.List)
			rec(n.ElseList)
			b.WriteByte(0)
		case *parse.WithNode:
			b.WriteByte(0)
			rec(n.List)
			rec(n.ElseList)
			b.WriteByte(0)
		default:
			b.WriteByte(0)
		}
	}
	rec(root)
	return b.String()
}

var (
	wordRE      = regexp.MustCompile(`^[¿¡]?\p{Lu}\p{Ll}`) // "Ninguno", not a key nor a code
	tagRE       = regexp.MustCompile(`(?s)<!--.*?-->|<[a-zA-Z/!][^>]*>`)
	labelAttrRE = regexp.MustCompile(`\b(placeholder|aria-label|title|alt|data-label|data-title)="([^"]*)"`)
)

// keyArg is the position of the catalogue key in a call of t ({{t "key" …}}) or
// doc ({{doc $lang "key" …}}), 0 for any other command.
func keyArg(cmd *parse.CommandNode) int {
	id, ok := cmd.Args[0].(*parse.IdentifierNode)
	switch {
	case !ok:
		return 0
	case id.Ident == "t":
		return 1
	case id.Ident == "doc":
		return 2
	}
	return 0
}

// No template writes user-facing text itself: every text with letters, and every
// label-like attribute (placeholder, aria-label, title, alt, data-label,
// data-title), comes from the catalogues through t, so that every page speaks
// every language (docs/languages.md#catalogues).
func TestTemplatesHoldNoLiteralText(t *testing.T) {
	for name, tmpl := range parsedTemplates(t) {
		for _, def := range tmpl.Templates() {
			if def.Tree == nil {
				continue
			}
			flat := flatten(def.Tree.Root)
			for _, m := range labelAttrRE.FindAllStringSubmatch(flat, -1) {
				if hasLetter(m[2]) {
					t.Errorf("%s: literal %s=%q: put it in the catalogues", name, m[1], strings.ReplaceAll(m[2], "\x00", "{{…}}"))
				}
			}
			// Nor as an argument of an action: a string with words is a text (t's
			// and doc's key and placeholder names aside).
			names := map[*parse.StringNode]bool{}
			walk(def.Tree.Root, func(n parse.Node) {
				if cmd, ok := n.(*parse.CommandNode); ok && len(cmd.Args) > 1 {
					if key := keyArg(cmd); key > 0 {
						for i := key; i < len(cmd.Args); i++ { // the key, then name, value pairs
							if s, ok := cmd.Args[i].(*parse.StringNode); ok && (i == key || (i-key)%2 == 1) {
								names[s] = true
							}
						}
					}
				}
			})
			walk(def.Tree.Root, func(n parse.Node) {
				if s, ok := n.(*parse.StringNode); ok && !names[s] && hasLetter(s.Text) && (strings.Contains(s.Text, " ") || wordRE.MatchString(s.Text)) {
					t.Errorf("%s: literal text %q in an action: pass a catalogue key", name, s.Text)
				}
			})
			for _, part := range strings.Split(tagRE.ReplaceAllString(flat, "\x00"), "\x00") {
				if v := strings.TrimSpace(html.UnescapeString(part)); hasLetter(v) && !literalAllowed[v] {
					t.Errorf("%s: literal text %q: put it in the catalogues and write {{t \"key\"}}", name, v)
				}
			}
		}
	}
}

// Every key the templates, the handlers and the scripts ask for is in the
// catalogues (a slip would show the key itself on the page).
func TestKeysUsedExist(t *testing.T) {
	raw, err := i18n.Raw(i18n.Default)
	if err != nil {
		t.Fatal(err)
	}
	want := func(where, key string) {
		if _, ok := raw[key]; !ok {
			t.Errorf("%s uses key %q, missing from the catalogues", where, key)
		}
	}
	used := 0
	for name, tmpl := range parsedTemplates(t) {
		for _, def := range tmpl.Templates() {
			if def.Tree == nil {
				continue
			}
			walk(def.Tree.Root, func(n parse.Node) {
				cmd, ok := n.(*parse.CommandNode)
				if !ok || len(cmd.Args) < 2 {
					return
				}
				if key := keyArg(cmd); key > 0 && key < len(cmd.Args) {
					if s, ok := cmd.Args[key].(*parse.StringNode); ok {
						want(name, s.Text)
						used++
					}
				}
			})
		}
	}
	if used < 500 {
		t.Errorf("templates use %d catalogue texts; expected every page's", used)
	}
	goKey := regexp.MustCompile(`(?:\.T\(r, |\bwd\.t\(|\bw\.t\(|i18n\.T\(lang, |i18n\.T\(w\.lang, )"([a-z_]+\.[A-Za-z_.]+)"`)
	goFiles, _ := filepath.Glob("*.go")
	for _, f := range goFiles {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range goKey.FindAllStringSubmatch(string(b), -1) {
			want(f, m[1])
		}
		for _, m := range regexp.MustCompile(`"((?:title|msg|back|error|nav)\.[a-z_]+)"[,)]`).FindAllStringSubmatch(string(b), -1) {
			if !strings.HasSuffix(m[1], ".html") { // a template's name
				want(f, m[1])
			}
		}
	}
	jsKey := regexp.MustCompile(`\bT\('([a-z_]+\.[A-Za-z_ .]+)'`)
	jsFiles, _ := filepath.Glob("static/*.js")
	for _, f := range jsFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range jsKey.FindAllStringSubmatch(string(b), -1) {
			want(f, "js."+m[1])
		}
	}
}

// Every code the pages name through a Spanish map (audit actions, entities and
// fields; how a booking was made; the seed's vehicle types) has its catalogue key.
func TestLabelKeysExist(t *testing.T) {
	raw, err := i18n.Raw(i18n.Default)
	if err != nil {
		t.Fatal(err)
	}
	for prefix, m := range map[string]map[string]string{"audit.action": auditActionLabels, "audit.entity": auditEntityLabels, "audit.field": auditFieldLabels} {
		for code, es := range m {
			if raw[prefix+"."+code] != es {
				t.Errorf("%s.%s: catalogue %q, Spanish label %q", prefix, code, raw[prefix+"."+code], es)
			}
		}
	}
	for typ, es := range vehicleTypeLabels {
		if raw["vehicle."+typ] != es {
			t.Errorf("vehicle.%s: catalogue %q, Spanish label %q", typ, raw["vehicle."+typ], es)
		}
	}
	for _, key := range bookedByLabels {
		if _, ok := raw[key]; !ok {
			t.Errorf("booked-by key %q missing", key)
		}
	}
}

// Pages name fields as the forms label them, never by their internal names.
func TestHumanizeFieldNames(t *testing.T) {
	for _, c := range []struct{ lang, in, want string }{
		{"es", "El campo phone es obligatorio.", "El campo «Teléfono» es obligatorio."},
		{"es", `El teléfono "12" (campo phone) no es válido`, `El teléfono "12" (campo «Teléfono») no es válido`},
		{"en", "El campo license_plate admite como máximo 15 caracteres.", "El campo «Number plate» admite como máximo 15 caracteres."},
		{"es", "El campo xyz es obligatorio.", "El campo xyz es obligatorio."},
		{"es", "Sin campos.", "Sin campos."},
	} {
		if got := humanize(c.lang, c.in); got != c.want {
			t.Errorf("humanize(%s, %q) = %q, want %q", c.lang, c.in, got, c.want)
		}
	}
}

// Pages in several languages asked for at once parse each language once, safely
// (run with -race).
func TestLocalizedConcurrent(t *testing.T) {
	l, err := newLocalized((&base{}).templateFuncs)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan pages)
	for i := 0; i < 8; i++ {
		lang := i18n.Languages[i%len(i18n.Languages)]
		go func() {
			p, err := l.in(lang)
			if err != nil {
				t.Error(err)
			}
			done <- p
		}()
	}
	for i := 0; i < 8; i++ {
		if p := <-done; p["home.html"] == nil {
			t.Error("no home page")
		}
	}
	if p, _ := l.in("xx"); p["home.html"] == nil {
		t.Error("an unknown language has no pages")
	}
}

// The pages that load admin.js, or show the day's board (app.js), are the ones
// adminScript names: they get those scripts' texts.
func TestAdminScriptPages(t *testing.T) {
	names, err := fs.Glob(templateFiles, "templates/*.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		b, _ := templateFiles.ReadFile(n)
		name := strings.TrimPrefix(n, "templates/")
		if strings.HasPrefix(name, "_") || name == "layout.html" {
			continue
		}
		uses := strings.Contains(string(b), `{{template "adminHead"}}`) || strings.Contains(string(b), "data-dashboard")
		if uses != adminScript(name) {
			t.Errorf("%s: loads admin.js %v, adminScript says %v", name, uses, adminScript(name))
		}
	}
}
