-- The reservation's own contact (docs/public-booking.md#privacy-of-anonymous-bookings), PostgreSQL dialect.
--
-- A booking lands on the customer found by phone (spec), but the name, email and
-- phone the booker typed are kept on the reservation: staff see them and the
-- reservation's notifications go to them, never to a stored customer's email. A
-- reservation made before this migration has no contact (all three null) and
-- falls back to its customer's data (reservation.ContactOr). contact_phone and
-- contact_name are set together; contact_email may be null (no email typed: the
-- notifications are recorded as skipped).
--
-- booked_by says how the reservation was made: 'public' (the online booking
-- without being signed in as the customer it landed on: the account holder's
-- profile marks it), 'account' (online, signed in as that customer), 'staff' (a
-- walk-in at the counter); null for reservations made before this migration.
ALTER TABLE reservation
    ADD COLUMN contact_phone TEXT,
    ADD COLUMN contact_email TEXT,
    ADD COLUMN contact_name  TEXT,
    ADD COLUMN booked_by     TEXT CHECK (booked_by IN ('public', 'account', 'staff')),
    ADD CONSTRAINT reservation_contact_complete CHECK ((contact_name IS NULL) = (contact_phone IS NULL));

-- The daily board shows the contact's name and phone: the covering indexes of
-- migration 0002 carry them too, so the board stays one index-only scan per range.
DROP INDEX reservation_entry_board;
DROP INDEX reservation_exit_board;
CREATE INDEX reservation_entry_board ON reservation (entry_date, id_reservation)
    INCLUDE (exit_date, status, id_vehicle, id_customer, id_main_service, contact_name, contact_phone);
CREATE INDEX reservation_exit_board ON reservation (exit_date, id_reservation)
    INCLUDE (entry_date, status, id_vehicle, id_customer, id_main_service, contact_name, contact_phone)
    WHERE exit_date IS NOT NULL;

-- A change of the contact changes the board (board_version, migration 0002).
DROP TRIGGER board_reservation_change ON reservation;
CREATE CONSTRAINT TRIGGER board_reservation_change
    AFTER INSERT OR DELETE OR UPDATE OF entry_date, exit_date, status, id_vehicle, id_customer, id_main_service, contact_name, contact_phone
    ON reservation DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION board_version_bump();
