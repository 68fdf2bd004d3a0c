package records

import (
	"context"
	"fmt"

	"parking/internal/clock"
)

// Reads the web layer needs beyond the operations' own results: it reaches the
// data through these methods, never the store.

// Clock is the service's clock, the one the store and the operations read.
func (s *Service) Clock() clock.Clock { return s.now }

// Ready reports whether the service can serve: the database answers and the
// catalog is loaded (GET /readyz).
func (s *Service) Ready(ctx context.Context) error {
	if err := s.store.Ping(ctx); err != nil {
		return fmt.Errorf("database unreachable: %w", err)
	}
	if s.catalog.Load() == nil {
		return ErrCatalogNotLoaded
	}
	return nil
}

// ErrCatalogNotLoaded is Ready's answer before the pricing catalog is loaded.
var ErrCatalogNotLoaded = fmt.Errorf("catalog not loaded")
