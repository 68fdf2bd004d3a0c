-- Booking references, managing a booking without an account, password reset and
-- the reminder the day before (docs/manage-booking.md#the-reminder-the-day-before-booking_reminder), SQLite dialect.
--
-- reference: 8 random characters of Crockford base32, unique. It is null only on
-- rows written before this migration until the start-up step gives them one
-- (store.AssignReferences): SQL cannot draw cryptographic randomness portably.
ALTER TABLE reservation ADD COLUMN reference TEXT
    CHECK (reference IS NULL OR length(reference) = 8);
CREATE UNIQUE INDEX reservation_reference ON reservation (reference);

-- The outbox learns two kinds (booking_reminder, password_reset) and one status
-- (cancelled: a reminder dropped before it was due). SQLite cannot change a CHECK
-- constraint in place, so the table is rebuilt with its rows and indexes.
CREATE TABLE notification_new (
    id              INTEGER PRIMARY KEY,
    id_reservation  INTEGER REFERENCES reservation (id_reservation) ON DELETE CASCADE,
    type            TEXT    NOT NULL CHECK (type IN ('booking_confirmation', 'vehicle_entry', 'reservation_modified', 'invoice',
                                                     'booking_reminder', 'password_reset')),
    delivery_id     TEXT    NOT NULL UNIQUE,
    payload         TEXT    NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'skipped', 'cancelled')),
    attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at DATETIME NOT NULL,
    locked_until    DATETIME,
    created_at      DATETIME NOT NULL,
    sent_at         DATETIME,
    last_error      TEXT,
    lease_token     TEXT
);
INSERT INTO notification_new (id, id_reservation, type, delivery_id, payload, status, attempts, next_attempt_at,
                              locked_until, created_at, sent_at, last_error, lease_token)
    SELECT id, id_reservation, type, delivery_id, payload, status, attempts, next_attempt_at,
           locked_until, created_at, sent_at, last_error, lease_token FROM notification;
DROP TABLE notification;
ALTER TABLE notification_new RENAME TO notification;
CREATE INDEX notification_due ON notification (next_attempt_at) WHERE status = 'pending';
CREATE INDEX notification_reservation ON notification (id_reservation, created_at);
CREATE INDEX notification_failed ON notification (created_at) WHERE status = 'failed';
-- A booking's pending reminder is found to move or drop it.
CREATE INDEX notification_reminder ON notification (id_reservation)
    WHERE type = 'booking_reminder' AND status = 'pending';

-- The service's generated secrets (PARKING_SECRET_KEY unset): written once, the first
-- writer wins (INSERT … ON CONFLICT DO NOTHING), so every instance signs alike.
CREATE TABLE service_secret (
    name       TEXT     PRIMARY KEY,
    value      TEXT     NOT NULL,
    created_at DATETIME NOT NULL
);

-- Password reset links (docs/manage-booking.md#password-reset): only the SHA-256 of the token is stored;
-- single use (used_at), one hour (expires_at).
CREATE TABLE password_reset (
    token_hash  TEXT     PRIMARY KEY,
    id_customer INTEGER  NOT NULL REFERENCES customer (id_customer) ON DELETE CASCADE,
    created_at  DATETIME NOT NULL,
    expires_at  DATETIME NOT NULL,
    used_at     DATETIME
);
CREATE INDEX password_reset_customer ON password_reset (id_customer);
