-- Capacity (docs/capacity.md#what-counts). occupancy is the per-day ledger: for each local day of
-- the facility (days since 1970-01-01), how many active stays with an exit occupy it
-- (internal/occupancy explains why stays without an exit, and EN CURSO stays past
-- their exit, are counted apart). Every reservation change updates it in its own
-- transaction; `parking occupancy rebuild` recomputes it from the reservations.
-- A day's count is the sum of its rows: one (stripe 0) on SQLite, up to 8 on
-- PostgreSQL, where bookings of the same day write different stripes so that they do
-- not all wait for one row's lock (internal/store/occupancy.go).
CREATE TABLE occupancy (
    day    INTEGER NOT NULL,
    stripe INTEGER NOT NULL DEFAULT 0,
    booked INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (day, stripe)
);

-- One row once the ledger has been built from the reservations (the service builds
-- it at start when this row is missing: databases migrated with reservations in them).
CREATE TABLE occupancy_state (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    built_at DATETIME NOT NULL
);

-- When staff accepted the reservation over the capacity (override_capacity).
ALTER TABLE reservation ADD COLUMN capacity_override_at DATETIME;

-- The open stays: no exit, or EN CURSO (past its exit when exit_date is before
-- today). A few rows at any time: the cars in the car park.
CREATE INDEX reservation_open_stay ON reservation (entry_date)
    WHERE exit_date IS NULL AND status IN ('PENDIENTE', 'EN CURSO');
CREATE INDEX reservation_in_car ON reservation (exit_date)
    WHERE status = 'EN CURSO';
