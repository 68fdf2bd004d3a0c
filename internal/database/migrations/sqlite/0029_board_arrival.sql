-- The daily board shows a car a gate camera saw arrive (docs/gate.md#arrival): the
-- entries' covering index carries arrived_at, so the board stays one index scan per
-- range, and a change of it changes the board (board_version, migration 0002).
DROP INDEX reservation_entry_board;
CREATE INDEX reservation_entry_board ON reservation
    (entry_date, id_reservation, exit_date, status, id_vehicle, id_customer, id_main_service, contact_name, contact_phone, reservation_date, arrived_at);

DROP TRIGGER board_reservation_update;
CREATE TRIGGER board_reservation_update
    AFTER UPDATE OF entry_date, exit_date, status, id_vehicle, id_customer, id_main_service, contact_name, contact_phone, arrived_at ON reservation
BEGIN UPDATE board_version SET version = version + 1 WHERE id = 1; END;
