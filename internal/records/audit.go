package records

import (
	"context"
	"fmt"

	"parking/internal/audit"
	"parking/internal/input"
	"parking/internal/store"
)

// AuditPageSize is the administrator trail page's size.
const AuditPageSize = 50

// maxAuditPage bounds the offset a page number can ask the database to skip.
const maxAuditPage = 10_000

// AuditQuery is the administrator trail page's filter, as typed: Person (an account
// id, or part of a name or email), Reservation (an id), From and To (local days,
// YYYY-MM-DD, both included), Page (from 1).
type AuditQuery struct {
	Person      string
	Reservation string
	From, To    string
	Page        int
}

// AuditPage is one page of the trail, newest first.
type AuditPage struct {
	Entries    []audit.Record
	Total      int
	Page       int
	PageSize   int
	TotalPages int
}

// AuditTrail lists the whole trail as q filters it (administrator page /admin/audit).
func (s *Service) AuditTrail(ctx context.Context, q AuditQuery) (AuditPage, error) {
	var f store.AuditFilter
	var err error
	if f.Person, err = input.Text("person", q.Person, input.MaxEmail); err != nil {
		return AuditPage{}, err
	}
	if f.ReservationID, err = input.ReservationID("reservation", q.Reservation); err != nil {
		return AuditPage{}, err
	}
	if f.From, f.To, err = s.dayRange("from", q.From, "to", q.To); err != nil {
		return AuditPage{}, err
	}
	page := max(q.Page, 1)
	f.Limit, f.Offset = AuditPageSize, (min(page, maxAuditPage)-1)*AuditPageSize
	rows, total, err := s.store.Records().AuditTrail(ctx, f)
	if err != nil {
		return AuditPage{}, fmt.Errorf("audit trail: %w", err)
	}
	return AuditPage{Entries: rows, Total: total, Page: page, PageSize: AuditPageSize,
		TotalPages: (total + AuditPageSize - 1) / AuditPageSize}, nil
}

// ReservationTrail is reservation id's trail, newest first (the detail page).
func (s *Service) ReservationTrail(ctx context.Context, id int64) ([]audit.Record, error) {
	rows, _, err := s.store.Records().AuditTrail(ctx, store.AuditFilter{ReservationID: id})
	if err != nil {
		return nil, fmt.Errorf("trail of reservation %d: %w", id, err)
	}
	return rows, nil
}
