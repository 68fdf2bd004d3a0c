-- Accounts (issue 3): login throttling and API token housekeeping, PostgreSQL dialect.

-- One row per failed login attempt, for each throttling key (the account's email
-- and the client's address). key_hash is the SHA-256 of the key, so the table holds
-- no email addresses or IP addresses in clear. Rows older than the throttling
-- window are deleted as new failures arrive; a successful login deletes the
-- account's rows.
CREATE TABLE login_failure (
    key_hash  TEXT        NOT NULL,
    failed_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX login_failure_key ON login_failure (key_hash, failed_at);
CREATE INDEX login_failure_at ON login_failure (failed_at);

-- Expired tokens are pruned by expiry.
CREATE INDEX api_token_expires ON api_token (expires_at);

-- The daily board (GET /api/reservations) reads every reservation entering or
-- leaving on a day, about 900 of each on a busy day. These covering indexes hold
-- every reservation column the board needs, so the range is one index-only scan
-- instead of a heap fetch per row; they replace 0001's single-column ones, which
-- they make redundant (entry_date and exit_date still lead, so every range query
-- on those columns keeps an index).
DROP INDEX reservation_entry;
DROP INDEX reservation_exit;
CREATE INDEX reservation_entry_board ON reservation (entry_date, id_reservation)
    INCLUDE (exit_date, status, id_vehicle, id_customer, id_main_service);
CREATE INDEX reservation_exit_board ON reservation (exit_date, id_reservation)
    INCLUDE (entry_date, status, id_vehicle, id_customer, id_main_service)
    WHERE exit_date IS NOT NULL;

-- board_version counts the committed changes that can alter a daily board: a
-- reservation inserted, deleted or moved (dates, status, vehicle, customer,
-- service), or a plate, brand, colour, customer name, phone or service name
-- edited. The service caches each day's board with the version it was read at and
-- serves it while the version stands, so several instances sharing the database
-- never serve a board older than the last commit they can see.
--
-- The counter is striped over 64 rows, one per connection (backend pid modulo 64),
-- and its value is their sum. A single row would be locked by every writing
-- transaction from its bump until its commit has been flushed, so commits would
-- queue behind each other one flush at a time and group commit would be lost
-- (measured: bookings ~30% slower at 50 clients). Each stripe only ever grows, so
-- the sum grows with every commit, exactly as one counter would.
CREATE TABLE board_version (
    id      INTEGER PRIMARY KEY CHECK (id BETWEEN 0 AND 63),
    version BIGINT  NOT NULL
);
INSERT INTO board_version (id, version) SELECT g, 0 FROM generate_series(0, 63) AS g;

-- The bump runs at commit (deferred constraint triggers), once per transaction
-- (a transaction-local setting remembers it), so a stripe is locked only for the
-- instant of the commit and never while the transaction waits for other row
-- locks: no deadlock can involve it.
CREATE FUNCTION board_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('parking.board_bumped', true) IS DISTINCT FROM txid_current()::text THEN
        PERFORM set_config('parking.board_bumped', txid_current()::text, true);
        UPDATE board_version SET version = version + 1 WHERE id = pg_backend_pid() % 64;
    END IF;
    RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER board_reservation_change
    AFTER INSERT OR DELETE OR UPDATE OF entry_date, exit_date, status, id_vehicle, id_customer, id_main_service
    ON reservation DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION board_version_bump();
CREATE CONSTRAINT TRIGGER board_vehicle_change
    AFTER UPDATE OF license_plate, brand, color ON vehicle
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION board_version_bump();
CREATE CONSTRAINT TRIGGER board_customer_change
    AFTER UPDATE OF full_name, phone ON customer
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION board_version_bump();
CREATE CONSTRAINT TRIGGER board_main_service_change
    AFTER UPDATE OF name ON main_service
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION board_version_bump();
