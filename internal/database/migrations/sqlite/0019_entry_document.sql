-- The vehicle's entry (docs/entry-document.md), SQLite dialect.
-- checked_in_at: the moment of the start (check-in), null until it happens.
-- keys_handed_over: whether the customer left the keys at the start.
ALTER TABLE reservation ADD COLUMN checked_in_at DATETIME;
ALTER TABLE reservation ADD COLUMN keys_handed_over BOOLEAN NOT NULL DEFAULT 0 CHECK (keys_handed_over IN (0, 1));

-- The cars in the car park by exit: the overdue ones (EN CURSO, exit passed) and the
-- next exit to pass are read through it without touching the history (docs/board.md#overdue).
CREATE INDEX reservation_in_course_exit ON reservation (exit_date) WHERE status = 'EN CURSO';
