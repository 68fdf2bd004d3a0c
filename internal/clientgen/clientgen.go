// Package clientgen checks that the OpenAPI document the service serves is enough to
// drive the partner API with a client generated from it (docs/partners.md#a-generated-client):
// its test generates a TypeScript client with @hey-api/openapi-ts, compiles a small
// program using it with tsc and runs it with node against a test server.
package clientgen

import (
	"os"
	"path/filepath"
)

// GeneratorVersion and TypeScriptVersion are the npm releases the test runs: test
// tools installed into a cache folder outside the repository (Dir), never committed.
const (
	GeneratorVersion  = "0.94.0"
	TypeScriptVersion = "5.9.3"
)

// Dir is where the generator and TypeScript are installed: $PARKING_CLIENTGEN_DIR,
// else the user's cache folder (…/parking-clientgen); .ci/run installs them there.
func Dir() string {
	if d := os.Getenv("PARKING_CLIENTGEN_DIR"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "parking-clientgen")
	}
	return filepath.Join(os.TempDir(), "parking-clientgen")
}
