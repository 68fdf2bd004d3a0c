-- Administrator operations, SQLite dialect.
-- Spots are physical: SQLite has no exclusion constraint; the service checks for an
-- overlapping holder inside its write transaction (one writer at a time), through
-- the partial index reservation_spot of 0001.
SELECT 1;
