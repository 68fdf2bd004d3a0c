-- The write path under load (issue 2, Performance), SQLite dialect.
--
-- The history search's FTS5 indexes (0003) are written at the end of each write
-- transaction instead of by each statement. FTS5 flushes its pending terms to a new
-- index segment at every SAVEPOINT, and group commit (internal/store/groupcommit.go)
-- runs each call in a savepoint: a booking paid a segment write and its share of
-- segment merging (a fifth of its CPU time). The triggers now queue the change in
-- fts_queue, in order, inside the same savepoint as the row (so a rolled-back call
-- queues nothing), and the store applies the queue just before every COMMIT, in one
-- statement per index, in the same transaction: the index is never out of step
-- with the committed rows. Only the store's write transactions (InTx) apply the
-- queue; nothing else writes customers or vehicles.
CREATE TABLE fts_queue (
    seq  INTEGER PRIMARY KEY,
    tbl  INTEGER NOT NULL, -- 1 customer_name_fts, 2 vehicle_plate_fts
    del  INTEGER NOT NULL, -- 1: remove the old text (FTS5 'delete' command), 0: add
    id   INTEGER NOT NULL,
    body TEXT    NOT NULL
);

DROP TRIGGER customer_name_fts_insert;
DROP TRIGGER customer_name_fts_delete;
DROP TRIGGER customer_name_fts_update;
DROP TRIGGER vehicle_plate_fts_insert;
DROP TRIGGER vehicle_plate_fts_delete;
DROP TRIGGER vehicle_plate_fts_update;

CREATE TRIGGER customer_name_fts_insert AFTER INSERT ON customer BEGIN
    INSERT INTO fts_queue (tbl, del, id, body) VALUES (1, 0, new.id_customer, new.full_name);
END;
CREATE TRIGGER customer_name_fts_delete AFTER DELETE ON customer BEGIN
    INSERT INTO fts_queue (tbl, del, id, body) VALUES (1, 1, old.id_customer, old.full_name);
END;
CREATE TRIGGER customer_name_fts_update AFTER UPDATE OF full_name ON customer BEGIN
    INSERT INTO fts_queue (tbl, del, id, body) VALUES (1, 1, old.id_customer, old.full_name);
    INSERT INTO fts_queue (tbl, del, id, body) VALUES (1, 0, new.id_customer, new.full_name);
END;

CREATE TRIGGER vehicle_plate_fts_insert AFTER INSERT ON vehicle BEGIN
    INSERT INTO fts_queue (tbl, del, id, body) VALUES (2, 0, new.id_vehicle, new.license_plate);
END;
CREATE TRIGGER vehicle_plate_fts_delete AFTER DELETE ON vehicle BEGIN
    INSERT INTO fts_queue (tbl, del, id, body) VALUES (2, 1, old.id_vehicle, old.license_plate);
END;
CREATE TRIGGER vehicle_plate_fts_update AFTER UPDATE OF license_plate ON vehicle BEGIN
    INSERT INTO fts_queue (tbl, del, id, body) VALUES (2, 1, old.id_vehicle, old.license_plate);
    INSERT INTO fts_queue (tbl, del, id, body) VALUES (2, 0, new.id_vehicle, new.license_plate);
END;
