// Package records is the staff's read side (docs/admin.md): the history search and
// its export, a reservation's full record, the audit trail, the daily board and the
// parking board. It reads; it changes nothing.
package records

import (
	"time"

	"parking/internal/input"
	"parking/internal/pricing"
	"parking/internal/store"
)

// Service is the staff's reads.
type Service struct {
	store   *store.Store
	catalog *pricing.Holder // the detail's catalog lists
	loc     *time.Location
	now     func() time.Time
	input   input.Rules // search phones read in PARKING_PHONE_REGION (docs/input-rules.md#phones)
}

// New builds the reads. loc is the facility's time zone, rules the input rules
// the history's search reads phones with.
func New(st *store.Store, catalog *pricing.Holder, loc *time.Location, rules input.Rules) *Service {
	return &Service{store: st, catalog: catalog, loc: loc, now: st.Clock(), input: rules}
}
