-- The daily board shows a car a gate camera saw arrive (docs/gate.md#arrival): the
-- entries' covering index carries arrived_at, so the board stays one index scan per
-- range, and a change of it changes the board (board_version, migration 0002).
DROP INDEX reservation_entry_board;
CREATE INDEX reservation_entry_board ON reservation (entry_date, id_reservation)
    INCLUDE (exit_date, status, id_vehicle, id_customer, id_main_service, contact_name, contact_phone, reservation_date, arrived_at);

DROP TRIGGER board_reservation_change ON reservation;
CREATE CONSTRAINT TRIGGER board_reservation_change
    AFTER INSERT OR DELETE OR UPDATE OF entry_date, exit_date, status, id_vehicle, id_customer, id_main_service, contact_name, contact_phone, arrived_at
    ON reservation DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION board_version_bump();
