// Package openapi holds the service's OpenAPI 3.1 document, kept in pieces (one
// YAML file per surface, see base.yaml) and merged into the one JSON document
// GET /api/openapi.json serves.
package openapi

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"sync"

	"go.yaml.in/yaml/v3"
)

//go:embed *.yaml
var files embed.FS

// JSON is the merged document. It is built once; a piece that does not parse, or a
// path or component defined in two pieces, is a programming error the tests catch
// (TestOpenAPIDocument), so it panics.
func JSON() []byte { return merged() }

var merged = sync.OnceValue(func() []byte {
	b, err := build(files)
	if err != nil {
		panic(err)
	}
	return b
})

// build merges base.yaml with every other piece: their paths, and each section of
// their components, are added to the base's, each name at most once.
func build(fsys fs.FS) ([]byte, error) {
	doc, err := load(fsys, "base.yaml")
	if err != nil {
		return nil, err
	}
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	paths := section(doc, "paths")
	components := section(doc, "components")
	for _, name := range names {
		if name == "base.yaml" {
			continue
		}
		piece, err := load(fsys, name)
		if err != nil {
			return nil, err
		}
		for key := range piece {
			if key != "paths" && key != "components" {
				return nil, fmt.Errorf("openapi/%s: only paths and components belong in a piece, not %q", name, key)
			}
		}
		if err := add(paths, section(piece, "paths"), name, "path"); err != nil {
			return nil, err
		}
		for kind, v := range section(piece, "components") {
			m, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("openapi/%s: components.%s is not a map", name, kind)
			}
			if err := add(section(components, kind), m, name, "components."+kind); err != nil {
				return nil, err
			}
		}
	}
	return json.MarshalIndent(doc, "", "  ")
}

func load(fsys fs.FS, name string) (map[string]any, error) {
	raw, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := yaml.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("openapi/%s: %w", name, err)
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// section returns m[key] as a map, creating it when missing.
func section(m map[string]any, key string) map[string]any {
	if s, ok := m[key].(map[string]any); ok {
		return s
	}
	s := map[string]any{}
	m[key] = s
	return s
}

func add(dst, src map[string]any, file, what string) error {
	for k, v := range src {
		if _, dup := dst[k]; dup {
			return fmt.Errorf("openapi/%s: %s %q is already defined in another piece", file, what, k)
		}
		dst[k] = v
	}
	return nil
}
