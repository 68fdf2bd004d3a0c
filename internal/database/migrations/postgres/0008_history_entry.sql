-- The history's dateFrom/dateTo select reservations by the local day of entry_date
-- (docs/admin.md#history) and list them newest booking first. The entry-date index of the
-- daily board (0002) finds the range; with reservation_date included the range can
-- be read and sorted by an index-only scan, without a heap fetch per reservation.
-- Same index, same name, one more included column: the board's queries keep their
-- plan, and no index is added to the booking's writes. (Rebuilt inside the
-- migration's transaction: the reservation table is locked against writes while it
-- builds, a few seconds for a million reservations.)
DROP INDEX reservation_entry_board;
CREATE INDEX reservation_entry_board ON reservation (entry_date, id_reservation)
    INCLUDE (exit_date, status, id_vehicle, id_customer, id_main_service, contact_name, contact_phone, reservation_date);
