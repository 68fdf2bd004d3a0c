package booking

import (
	"context"
	"time"

	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/money"
	"parking/internal/reservation"
)

// Statement is a partner's month (docs/partners.md#for-staff): its reservations whose
// entry falls in the month (facility's zone), cancelled ones left out, each with
// its commission, and the totals, which are the sums of the lines.
type Statement struct {
	Partner    reservation.Partner
	Month      string // YYYY-MM
	Lines      []StatementLine
	TotalPrice money.Cents
	Commission money.Cents
}

// StatementLine is one booking of a statement.
type StatementLine struct {
	Reservation reservation.Reservation
	Commission  money.Cents
}

// Statement reads partner id's statement of month (YYYY-MM; 400 naming month
// otherwise).
func (p *Partners) Statement(ctx context.Context, id int64, month string) (Statement, error) {
	m, err := time.ParseInLocation("2006-01", month, p.s.loc)
	if err != nil || m.Format("2006-01") != month {
		return Statement{}, fault.Coded(fault.Invalid, "err.partner.month", "Field", i18n.FieldName("month"), "Value", month)
	}
	rec, err := p.Get(ctx, id)
	if err != nil {
		return Statement{}, err
	}
	rows, err := p.s.store.Partners().StatementReservations(ctx, id, m, m.AddDate(0, 1, 0))
	if err != nil {
		return Statement{}, err
	}
	st := Statement{Partner: rec.Partner, Month: month, Lines: make([]StatementLine, len(rows))}
	for i, r := range rows {
		st.Lines[i] = StatementLine{Reservation: r, Commission: r.Commission()}
		st.TotalPrice += r.TotalPrice
		st.Commission += st.Lines[i].Commission
	}
	return st, nil
}
