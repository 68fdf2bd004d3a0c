-- Verified emails and bookings owned by an account (docs/privacy.md#who-sees-a-booking),
-- PostgreSQL dialect.
--
-- customer.email_verified_at: when the account proved it reads its email (a link
-- sent to it was followed); null while unverified. Accounts made before this rule
-- start unverified. An email change sets it back to null.
-- customer.email_verify_sent_at: when the last verification link was sent (the
-- resend is limited by it).
ALTER TABLE customer ADD COLUMN email_verified_at TIMESTAMPTZ;
ALTER TABLE customer ADD COLUMN email_verify_sent_at TIMESTAMPTZ;

-- reservation.claimed_at: when the reservation became its customer's account's own
-- although it was not booked while signed in to that account (a public booking or a
-- walk-in that landed on the account by phone, or a booking claimed with its manage
-- token). Once set it is never cleared: the booking stays the account's.
ALTER TABLE reservation ADD COLUMN claimed_at TIMESTAMPTZ;

-- The outbox learns the email_verification kind.
ALTER TABLE notification DROP CONSTRAINT notification_type_check;
ALTER TABLE notification ADD CONSTRAINT notification_type_check
    CHECK (type IN ('booking_confirmation', 'vehicle_entry', 'reservation_modified', 'invoice',
                    'booking_reminder', 'password_reset', 'email_verification'));
