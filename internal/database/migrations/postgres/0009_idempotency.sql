-- Idempotent bookings (docs/public-booking.md#retries-idempotency-key), PostgreSQL dialect. One row per (route, key) of an
-- Idempotency-Key header: the SHA-256 of the request body, and once the booking is
-- done the answer it got (status, content type, Location, body), written in the
-- booking's own transaction. state is 'running' from the claim until then. Rows
-- older than 24 h no longer count and are deleted as keys are claimed.
CREATE TABLE idempotency_key (
    route        TEXT     NOT NULL,
    idem_key     TEXT     NOT NULL,
    body_hash    TEXT     NOT NULL,
    state        TEXT     NOT NULL CHECK (state IN ('running', 'done')),
    status       INTEGER,
    content_type TEXT,
    location     TEXT,
    body         TEXT,
    created_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (route, idem_key)
);
CREATE INDEX idempotency_key_created ON idempotency_key (created_at);
