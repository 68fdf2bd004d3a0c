package app_test

import (
	"bytes"
	"context"
	"io"
	"testing"

	"parking/internal/app"
	"parking/internal/web/api/openapi"
)

// `parking openapi` prints the document GET /api/openapi.json serves (the CI lints it).
func TestOpenAPICommand(t *testing.T) {
	var out bytes.Buffer
	if code := app.Run(context.Background(), []string{"openapi"}, func(string) string { return "" }, &out, io.Discard); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !bytes.Equal(bytes.TrimSuffix(out.Bytes(), []byte("\n")), openapi.JSON()) {
		t.Error("parking openapi did not print the served document")
	}
}
