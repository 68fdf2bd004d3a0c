-- The exit (docs/exit.md), SQLite dialect: the moment of check-out, and what was
-- booked when a late car is repriced at the exit (null when it never was); the
-- facility setting that turns charging the real stay of a late car on or off.
ALTER TABLE reservation ADD COLUMN checked_out_at DATETIME;
ALTER TABLE reservation ADD COLUMN booked_exit_date DATETIME;
ALTER TABLE reservation ADD COLUMN booked_price_cents INTEGER CHECK (booked_price_cents IS NULL OR booked_price_cents BETWEEN 0 AND 99999999999);
ALTER TABLE facility_settings ADD COLUMN charge_overstay BOOLEAN NOT NULL DEFAULT 1;
