// Package handover is what staff record of a vehicle as it is handed over
// (docs/photos.md): its photos, by address or uploaded; the hand-over record at the
// start and at finalize; and the entry document (docs/entry-document.md). The
// lifecycle's transitions save their hand-over through Save, in their transaction.
package handover

import (
	"log/slog"
	"time"

	"parking/internal/ops"
	"parking/internal/store"
)

// Service is the hand-over's operations.
type Service struct {
	store  *store.Store
	log    *slog.Logger
	now    func() time.Time
	photos photoConfig // uploaded photos: media store, addresses (photos_upload.go)
}

// Option adjusts a Service at construction.
type Option func(*Service)

// New builds the hand-over's operations.
func New(st *store.Store, log *slog.Logger, opts ...Option) *Service {
	s := &Service{store: st, log: log, now: st.Clock()}
	for _, o := range opts {
		o(s)
	}
	return s
}

// What every staff change of a reservation does, the same in the lifecycle
// (internal/ops): lock the reservation, record its audit entry, and let a customer
// see only what its account sees.
var (
	lockForAdmin     = ops.LockForAdmin
	auditReservation = ops.AuditReservation
	accountSees      = ops.AccountSees
)
