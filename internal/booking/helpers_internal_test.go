package booking

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"parking/internal/store"
	"parking/internal/storetest"
)

// internalService is a Service on a fresh database of dialect d with the default
// catalog, for the tests inside the package; madrid is the facility's zone.
func internalService(t *testing.T, d store.Dialect, opts ...Option) (s *Service, st *store.Store, madrid *time.Location) {
	t.Helper()
	st = storetest.Open(t, d)
	h := storetest.Catalog(t, st)
	madrid, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		t.Fatal(err)
	}
	return New(st, h, madrid, slog.New(slog.NewTextHandler(io.Discard, nil)), opts...), st, madrid
}
