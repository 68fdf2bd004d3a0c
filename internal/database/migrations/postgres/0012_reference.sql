-- Booking references, managing a booking without an account, password reset and
-- the reminder the day before (docs/manage-booking.md#the-reminder-the-day-before-booking_reminder), PostgreSQL dialect.
--
-- reference: 8 random characters of Crockford base32, unique. It is null only on
-- rows written before this migration until the start-up step gives them one
-- (store.AssignReferences), as in the SQLite dialect.
ALTER TABLE reservation ADD COLUMN reference TEXT
    CHECK (reference IS NULL OR length(reference) = 8);
CREATE UNIQUE INDEX reservation_reference ON reservation (reference);

-- The outbox learns two kinds (booking_reminder, password_reset) and one status
-- (cancelled: a reminder dropped before it was due).
ALTER TABLE notification DROP CONSTRAINT notification_type_check;
ALTER TABLE notification ADD CONSTRAINT notification_type_check
    CHECK (type IN ('booking_confirmation', 'vehicle_entry', 'reservation_modified', 'invoice',
                    'booking_reminder', 'password_reset'));
ALTER TABLE notification DROP CONSTRAINT notification_status_check;
ALTER TABLE notification ADD CONSTRAINT notification_status_check
    CHECK (status IN ('pending', 'sent', 'failed', 'skipped', 'cancelled'));
-- A booking's pending reminder is found to move or drop it.
CREATE INDEX notification_reminder ON notification (id_reservation)
    WHERE type = 'booking_reminder' AND status = 'pending';

-- The service's generated secrets (PARKING_SECRET_KEY unset): written once, the first
-- writer wins (INSERT … ON CONFLICT DO NOTHING), so every instance signs alike.
CREATE TABLE service_secret (
    name       TEXT        PRIMARY KEY,
    value      TEXT        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);

-- Password reset links (docs/manage-booking.md#password-reset): only the SHA-256 of the token is stored;
-- single use (used_at), one hour (expires_at).
CREATE TABLE password_reset (
    token_hash  TEXT        PRIMARY KEY,
    id_customer BIGINT      NOT NULL REFERENCES customer (id_customer) ON DELETE CASCADE,
    created_at  TIMESTAMPTZ NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL,
    used_at     TIMESTAMPTZ
);
CREATE INDEX password_reset_customer ON password_reset (id_customer);
