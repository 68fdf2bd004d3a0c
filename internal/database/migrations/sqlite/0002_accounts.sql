-- Accounts (issue 3): login throttling and API token housekeeping, SQLite dialect.

-- One row per failed login attempt, for each throttling key (the account's email
-- and the client's address). key_hash is the SHA-256 of the key, so the table holds
-- no email addresses or IP addresses in clear. Rows older than the throttling
-- window are deleted as new failures arrive; a successful login deletes the
-- account's rows.
CREATE TABLE login_failure (
    key_hash  TEXT        NOT NULL,
    failed_at DATETIME    NOT NULL
);
CREATE INDEX login_failure_key ON login_failure (key_hash, failed_at);
CREATE INDEX login_failure_at ON login_failure (failed_at);

-- Expired tokens are pruned by expiry.
CREATE INDEX api_token_expires ON api_token (expires_at);

-- The daily board (GET /api/reservations) reads every reservation entering or
-- leaving on a day, about 900 of each on a busy day. These covering indexes hold
-- every reservation column the board needs, so the range is one index scan
-- without a table lookup per row; they replace 0001's single-column ones, which
-- they make redundant (entry_date and exit_date still lead, so every range query
-- on those columns keeps an index).
DROP INDEX reservation_entry;
DROP INDEX reservation_exit;
CREATE INDEX reservation_entry_board ON reservation
    (entry_date, id_reservation, exit_date, status, id_vehicle, id_customer, id_main_service);
CREATE INDEX reservation_exit_board ON reservation
    (exit_date, id_reservation, entry_date, status, id_vehicle, id_customer, id_main_service)
    WHERE exit_date IS NOT NULL;

-- board_version counts the committed changes that can alter a daily board: a
-- reservation inserted, deleted or moved (dates, status, vehicle, customer,
-- service), or a plate, brand, colour, customer name, phone or service name
-- edited. The service caches each day's board with the version it was read at and
-- serves it while the version stands. The triggers run inside the writing
-- transaction, so the version and the data always agree, whichever process wrote.
CREATE TABLE board_version (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO board_version (id, version) VALUES (1, 0);

CREATE TRIGGER board_reservation_insert AFTER INSERT ON reservation
BEGIN UPDATE board_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER board_reservation_delete AFTER DELETE ON reservation
BEGIN UPDATE board_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER board_reservation_update
    AFTER UPDATE OF entry_date, exit_date, status, id_vehicle, id_customer, id_main_service ON reservation
BEGIN UPDATE board_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER board_vehicle_update AFTER UPDATE OF license_plate, brand, color ON vehicle
BEGIN UPDATE board_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER board_customer_update AFTER UPDATE OF full_name, phone ON customer
BEGIN UPDATE board_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER board_main_service_update AFTER UPDATE OF name ON main_service
BEGIN UPDATE board_version SET version = version + 1 WHERE id = 1; END;
