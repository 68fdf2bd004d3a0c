package apispec

import (
	"encoding/json"
	"os"
	"strings"
)

// StrictEnv, with Env, also fails an answer that carries a field its schema does
// not list: every object schema of the document is closed for the check.
const StrictEnv = "PARKING_TEST_OPENAPI_STRICT"

// Strict reports whether StrictEnv asks for closed schemas.
func Strict() bool { return os.Getenv(StrictEnv) == "1" }

// closeObjects closes every object schema of the document with
// unevaluatedProperties: false (JSON Schema 2020-12, which sees through allOf and
// $ref). A schema that is a member of an allOf is left open, and the allOf holder
// is closed instead, so the members' properties add up; a schema that already
// says additionalProperties keeps it.
func closeObjects(raw []byte) []byte {
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return raw
	}
	inAllOf := map[string]bool{}
	var findRefs func(v any, under bool)
	findRefs = func(v any, under bool) {
		switch t := v.(type) {
		case map[string]any:
			if r, ok := t["$ref"].(string); ok && under {
				inAllOf[strings.TrimPrefix(r, "#/components/schemas/")] = true
			}
			for k, c := range t {
				findRefs(c, k == "allOf")
			}
		case []any:
			for _, c := range t {
				findRefs(c, under)
			}
		}
	}
	findRefs(doc, false)
	var walk func(v any, member bool)
	walk = func(v any, member bool) {
		switch t := v.(type) {
		case map[string]any:
			if _, ok := t["allOf"]; ok && !member {
				t["unevaluatedProperties"] = false
			} else if _, ok := t["properties"]; ok && !member {
				if _, set := t["additionalProperties"]; !set {
					t["additionalProperties"] = false
				}
			}
			for k, c := range t {
				if k == "allOf" {
					for _, m := range c.([]any) {
						walk(m, true)
					}
					continue
				}
				if k == "properties" {
					for _, p := range c.(map[string]any) {
						walk(p, false)
					}
					continue
				}
				walk(c, false)
			}
		case []any:
			for _, c := range t {
				walk(c, false)
			}
		}
	}
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	for name, s := range schemas {
		walk(s, inAllOf[name])
	}
	for k, v := range doc {
		if k != "components" {
			walk(v, false)
		}
	}
	for k, v := range doc["components"].(map[string]any) {
		if k != "schemas" {
			walk(v, false)
		}
	}
	out, _ := json.Marshal(doc)
	return out
}
