package openapi

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// lowerCamel is the form of an operationId: getCheckoutPreview.
var lowerCamel = regexp.MustCompile(`^[a-z][a-z0-9]*([A-Z][a-z0-9]*)*$`)

var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// The rules the CI's Redocly lint (recommended) enforces as errors, checked here
// so `go test` fails first: every operation has a unique lowerCamelCase
// operationId and declares its security (`security: []` when public), naming only
// schemes the document defines; no YAML slip leaves a key without a value.
func TestDocumentLint(t *testing.T) { checkLint(t, JSON()) }

// The check fails on each slip it exists for.
func TestDocumentLintFindsSlips(t *testing.T) {
	good := `{"components":{"securitySchemes":{"session":{"type":"apiKey","in":"cookie","name":"s"}}},
		"paths":{"/a":{"get":{"operationId":"getA","security":[{"session":[]}],"responses":{}}},
		"/b":{"post":{"operationId":"postB","security":[],"responses":{}}}}}`
	if p := lintProblems(t, []byte(good)); len(p) > 0 {
		t.Fatalf("a clean document was refused: %v", p)
	}
	for name, doc := range map[string]string{
		"missing operationId": strings.Replace(good, `"operationId":"getA",`, "", 1),
		"duplicate":           strings.Replace(good, `"postB"`, `"getA"`, 1),
		"not lowerCamelCase":  strings.Replace(good, `"postB"`, `"post_b"`, 1),
		"no security":         strings.Replace(good, `"security":[],`, "", 1),
		"unknown scheme":      strings.Replace(good, `{"session":[]}`, `{"cookie":[]}`, 1),
		"stray YAML key":      strings.Replace(good, `"responses":{}}}}}`, `"responses":{},"when made":null}}}}`, 1),
	} {
		if p := lintProblems(t, []byte(doc)); len(p) == 0 {
			t.Errorf("%s: not found", name)
		}
	}
}

func checkLint(t *testing.T, doc []byte) {
	t.Helper()
	for _, p := range lintProblems(t, doc) {
		t.Error(p)
	}
}

func lintProblems(t *testing.T, raw []byte) []string {
	t.Helper()
	var doc struct {
		Components struct {
			SecuritySchemes map[string]any `json:"securitySchemes"`
		} `json:"components"`
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var problems []string
	seen := map[string]string{}
	paths := make([]string, 0, len(doc.Paths))
	for p := range doc.Paths {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, path := range paths {
		for _, m := range methods {
			body, ok := doc.Paths[path][m]
			if !ok {
				continue
			}
			where := strings.ToUpper(m) + " " + path
			var op struct {
				OperationID string                 `json:"operationId"`
				Security    *[]map[string][]string `json:"security"`
			}
			if err := json.Unmarshal(body, &op); err != nil {
				problems = append(problems, where+": "+err.Error())
				continue
			}
			switch {
			case op.OperationID == "":
				problems = append(problems, where+": no operationId")
			case !lowerCamel.MatchString(op.OperationID):
				problems = append(problems, where+": operationId "+op.OperationID+" is not lowerCamelCase")
			case seen[op.OperationID] != "":
				problems = append(problems, where+": operationId "+op.OperationID+" is also "+seen[op.OperationID])
			default:
				seen[op.OperationID] = where
			}
			if op.Security == nil {
				problems = append(problems, where+": no security (security: [] when public)")
				continue
			}
			for _, req := range *op.Security {
				for scheme := range req {
					if _, ok := doc.Components.SecuritySchemes[scheme]; !ok {
						problems = append(problems, where+": unknown security scheme "+scheme)
					}
				}
			}
		}
	}
	var whole any
	_ = json.Unmarshal(raw, &whole)
	nullKeys("", whole, &problems)
	return problems
}

// nullKeys reports keys whose value is null: in these YAML pieces that is a slip
// (an unquoted ", " in a flow mapping makes a key of the rest of the text).
// An enum or const may hold null on purpose.
func nullKeys(at string, v any, problems *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if x == nil && k != "const" && k != "default" && k != "example" {
				*problems = append(*problems, at+"/"+k+": a key without a value")
			}
			nullKeys(at+"/"+k, x, problems)
		}
	case []any:
		for _, x := range v {
			nullKeys(at+"[]", x, problems)
		}
	}
}
