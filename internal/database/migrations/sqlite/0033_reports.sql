-- The reports (docs/reports.md#indexes), SQLite dialect: every figure is an aggregate over a date range, read
-- through one of these indexes instead of the whole table.
-- Receipts by the moment of issue (revenue by day, the invoice book), with what the revenue
-- sums, so that it is read from the index alone.
CREATE INDEX receipt_issued ON receipt (issued_at, replaces, id_reservation, total_cents, base_cents, vat_cents);
-- Bookings made in a range: counted, cancelled, and their lead time, from the index alone.
CREATE INDEX reservation_report_created ON reservation (reservation_date, status, entry_date);
-- Possible no-shows: pending stays never started, by entry.
CREATE INDEX reservation_report_pending ON reservation (entry_date) WHERE status = 'PENDIENTE' AND checked_in_at IS NULL;
-- Finished stays by entry (average stay), and by the start and the end of the stay (past
-- occupancy: the stays begun and ended each day, and those carried into the range).
CREATE INDEX reservation_report_finished ON reservation (entry_date, checked_in_at, checked_out_at, exit_date)
    WHERE status = 'FINALIZADA';
CREATE INDEX reservation_report_finished_start ON reservation (COALESCE(checked_in_at, entry_date))
    WHERE status = 'FINALIZADA';
CREATE INDEX reservation_report_finished_end ON reservation (COALESCE(checked_out_at, exit_date), COALESCE(checked_in_at, entry_date))
    WHERE status = 'FINALIZADA';
