-- Verified emails and bookings owned by an account (docs/privacy.md#who-sees-a-booking),
-- SQLite dialect.
--
-- customer.email_verified_at: when the account proved it reads its email (a link
-- sent to it was followed); null while unverified. Accounts made before this rule
-- start unverified. An email change sets it back to null.
-- customer.email_verify_sent_at: when the last verification link was sent (the
-- resend is limited by it).
ALTER TABLE customer ADD COLUMN email_verified_at DATETIME;
ALTER TABLE customer ADD COLUMN email_verify_sent_at DATETIME;

-- reservation.claimed_at: when the reservation became its customer's account's own
-- although it was not booked while signed in to that account (a public booking or a
-- walk-in that landed on the account by phone, or a booking claimed with its manage
-- token). Once set it is never cleared: the booking stays the account's.
ALTER TABLE reservation ADD COLUMN claimed_at DATETIME;

-- The outbox learns the email_verification kind. SQLite cannot change a CHECK
-- constraint in place, so the table is rebuilt with its rows and indexes.
CREATE TABLE notification_new (
    id              INTEGER PRIMARY KEY,
    id_reservation  INTEGER REFERENCES reservation (id_reservation) ON DELETE CASCADE,
    type            TEXT    NOT NULL CHECK (type IN ('booking_confirmation', 'vehicle_entry', 'reservation_modified', 'invoice',
                                                     'booking_reminder', 'password_reset', 'email_verification')),
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
