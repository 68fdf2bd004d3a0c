-- Administrator operations, SQLite dialect.
--
-- Spots are physical: SQLite has no exclusion constraint; the service checks for an
-- overlapping holder inside its write transaction (one writer at a time), through
-- the partial index reservation_spot of 0001.
--
-- History search (GET /admin/history?search=): partial, case-insensitive match on
-- the customer's name or the plate. A LIKE '%…%' cannot use a b-tree, and scanning
-- 300,000 customers per search is too slow, so each column gets an FTS5 index with
-- the trigram tokenizer: a quoted phrase of three or more characters matches exactly
-- the rows containing it as a substring, case-insensitively, from the index alone.
-- They are external-content tables (the text stays in customer and vehicle), kept in
-- step by the triggers below.
CREATE VIRTUAL TABLE customer_name_fts USING fts5(
    full_name, content='customer', content_rowid='id_customer', tokenize='trigram');
CREATE VIRTUAL TABLE vehicle_plate_fts USING fts5(
    license_plate, content='vehicle', content_rowid='id_vehicle', tokenize='trigram');
INSERT INTO customer_name_fts (customer_name_fts) VALUES ('rebuild');
INSERT INTO vehicle_plate_fts (vehicle_plate_fts) VALUES ('rebuild');

CREATE TRIGGER customer_name_fts_insert AFTER INSERT ON customer BEGIN
    INSERT INTO customer_name_fts (rowid, full_name) VALUES (new.id_customer, new.full_name);
END;
CREATE TRIGGER customer_name_fts_delete AFTER DELETE ON customer BEGIN
    INSERT INTO customer_name_fts (customer_name_fts, rowid, full_name) VALUES ('delete', old.id_customer, old.full_name);
END;
CREATE TRIGGER customer_name_fts_update AFTER UPDATE OF full_name ON customer BEGIN
    INSERT INTO customer_name_fts (customer_name_fts, rowid, full_name) VALUES ('delete', old.id_customer, old.full_name);
    INSERT INTO customer_name_fts (rowid, full_name) VALUES (new.id_customer, new.full_name);
END;

CREATE TRIGGER vehicle_plate_fts_insert AFTER INSERT ON vehicle BEGIN
    INSERT INTO vehicle_plate_fts (rowid, license_plate) VALUES (new.id_vehicle, new.license_plate);
END;
CREATE TRIGGER vehicle_plate_fts_delete AFTER DELETE ON vehicle BEGIN
    INSERT INTO vehicle_plate_fts (vehicle_plate_fts, rowid, license_plate) VALUES ('delete', old.id_vehicle, old.license_plate);
END;
CREATE TRIGGER vehicle_plate_fts_update AFTER UPDATE OF license_plate ON vehicle BEGIN
    INSERT INTO vehicle_plate_fts (vehicle_plate_fts, rowid, license_plate) VALUES ('delete', old.id_vehicle, old.license_plate);
    INSERT INTO vehicle_plate_fts (rowid, license_plate) VALUES (new.id_vehicle, new.license_plate);
END;

-- Reservation tallies per customer and per vehicle, by status, kept by triggers in
-- the same transaction as every reservation write. A history search counts its
-- matches by adding up the tallies of the matching customers and vehicles instead
-- of visiting each of their reservations: a common surname matches tens of
-- thousands of reservations. A customer or vehicle without reservations has no row.
CREATE TABLE customer_tally (
    id_customer      INTEGER PRIMARY KEY REFERENCES customer (id_customer) ON DELETE CASCADE,
    tally_pendiente  INTEGER NOT NULL DEFAULT 0,
    tally_en_curso   INTEGER NOT NULL DEFAULT 0,
    tally_finalizada INTEGER NOT NULL DEFAULT 0,
    tally_cancelada  INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE vehicle_tally (
    id_vehicle       INTEGER PRIMARY KEY REFERENCES vehicle (id_vehicle) ON DELETE CASCADE,
    tally_pendiente  INTEGER NOT NULL DEFAULT 0,
    tally_en_curso   INTEGER NOT NULL DEFAULT 0,
    tally_finalizada INTEGER NOT NULL DEFAULT 0,
    tally_cancelada  INTEGER NOT NULL DEFAULT 0
);
INSERT INTO customer_tally (id_customer, tally_pendiente, tally_en_curso, tally_finalizada, tally_cancelada)
SELECT id_customer, sum(status = 'PENDIENTE'), sum(status = 'EN CURSO'), sum(status = 'FINALIZADA'), sum(status = 'CANCELADA')
FROM reservation GROUP BY id_customer;
INSERT INTO vehicle_tally (id_vehicle, tally_pendiente, tally_en_curso, tally_finalizada, tally_cancelada)
SELECT id_vehicle, sum(status = 'PENDIENTE'), sum(status = 'EN CURSO'), sum(status = 'FINALIZADA'), sum(status = 'CANCELADA')
FROM reservation GROUP BY id_vehicle;

-- The whole history's count, per status (the history without a search or dates
-- is one SUM, not a count of a million rows). Sharded like PostgreSQL's; SQLite has
-- one writer anyway.
CREATE TABLE reservation_tally (
    status TEXT    NOT NULL,
    shard  INTEGER NOT NULL,
    n      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (status, shard)
) WITHOUT ROWID;
WITH RECURSIVE g(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM g WHERE x < 15)
INSERT INTO reservation_tally (status, shard)
SELECT s.status, g.x FROM (SELECT 'PENDIENTE' AS status UNION ALL SELECT 'EN CURSO' UNION ALL SELECT 'FINALIZADA'
    UNION ALL SELECT 'CANCELADA') s, g;
INSERT INTO reservation_tally (status, shard, n)
SELECT status, id_reservation % 16, count(*) FROM reservation WHERE true GROUP BY 1, 2
ON CONFLICT (status, shard) DO UPDATE SET n = excluded.n;

CREATE TRIGGER reservation_tally_insert AFTER INSERT ON reservation BEGIN
    UPDATE reservation_tally SET n = n + 1 WHERE status = new.status AND shard = new.id_reservation % 16;
    INSERT INTO customer_tally (id_customer, tally_pendiente, tally_en_curso, tally_finalizada, tally_cancelada)
    VALUES (new.id_customer, new.status = 'PENDIENTE', new.status = 'EN CURSO', new.status = 'FINALIZADA', new.status = 'CANCELADA')
    ON CONFLICT (id_customer) DO UPDATE SET
        tally_pendiente  = tally_pendiente  + excluded.tally_pendiente,
        tally_en_curso   = tally_en_curso   + excluded.tally_en_curso,
        tally_finalizada = tally_finalizada + excluded.tally_finalizada,
        tally_cancelada  = tally_cancelada  + excluded.tally_cancelada;
    INSERT INTO vehicle_tally (id_vehicle, tally_pendiente, tally_en_curso, tally_finalizada, tally_cancelada)
    VALUES (new.id_vehicle, new.status = 'PENDIENTE', new.status = 'EN CURSO', new.status = 'FINALIZADA', new.status = 'CANCELADA')
    ON CONFLICT (id_vehicle) DO UPDATE SET
        tally_pendiente  = tally_pendiente  + excluded.tally_pendiente,
        tally_en_curso   = tally_en_curso   + excluded.tally_en_curso,
        tally_finalizada = tally_finalizada + excluded.tally_finalizada,
        tally_cancelada  = tally_cancelada  + excluded.tally_cancelada;
END;
CREATE TRIGGER reservation_tally_delete AFTER DELETE ON reservation BEGIN
    UPDATE reservation_tally SET n = n - 1 WHERE status = old.status AND shard = old.id_reservation % 16;
    UPDATE customer_tally SET
        tally_pendiente  = tally_pendiente  - (old.status = 'PENDIENTE'),
        tally_en_curso   = tally_en_curso   - (old.status = 'EN CURSO'),
        tally_finalizada = tally_finalizada - (old.status = 'FINALIZADA'),
        tally_cancelada  = tally_cancelada  - (old.status = 'CANCELADA')
    WHERE id_customer = old.id_customer;
    UPDATE vehicle_tally SET
        tally_pendiente  = tally_pendiente  - (old.status = 'PENDIENTE'),
        tally_en_curso   = tally_en_curso   - (old.status = 'EN CURSO'),
        tally_finalizada = tally_finalizada - (old.status = 'FINALIZADA'),
        tally_cancelada  = tally_cancelada  - (old.status = 'CANCELADA')
    WHERE id_vehicle = old.id_vehicle;
END;
CREATE TRIGGER reservation_tally_update AFTER UPDATE OF status, id_customer, id_vehicle ON reservation
WHEN old.status <> new.status OR old.id_customer <> new.id_customer OR old.id_vehicle <> new.id_vehicle BEGIN
    UPDATE reservation_tally SET n = n - 1 WHERE status = old.status AND shard = old.id_reservation % 16;
    UPDATE reservation_tally SET n = n + 1 WHERE status = new.status AND shard = new.id_reservation % 16;
    UPDATE customer_tally SET
        tally_pendiente  = tally_pendiente  - (old.status = 'PENDIENTE'),
        tally_en_curso   = tally_en_curso   - (old.status = 'EN CURSO'),
        tally_finalizada = tally_finalizada - (old.status = 'FINALIZADA'),
        tally_cancelada  = tally_cancelada  - (old.status = 'CANCELADA')
    WHERE id_customer = old.id_customer;
    UPDATE vehicle_tally SET
        tally_pendiente  = tally_pendiente  - (old.status = 'PENDIENTE'),
        tally_en_curso   = tally_en_curso   - (old.status = 'EN CURSO'),
        tally_finalizada = tally_finalizada - (old.status = 'FINALIZADA'),
        tally_cancelada  = tally_cancelada  - (old.status = 'CANCELADA')
    WHERE id_vehicle = old.id_vehicle;
    INSERT INTO customer_tally (id_customer, tally_pendiente, tally_en_curso, tally_finalizada, tally_cancelada)
    VALUES (new.id_customer, new.status = 'PENDIENTE', new.status = 'EN CURSO', new.status = 'FINALIZADA', new.status = 'CANCELADA')
    ON CONFLICT (id_customer) DO UPDATE SET
        tally_pendiente  = tally_pendiente  + excluded.tally_pendiente,
        tally_en_curso   = tally_en_curso   + excluded.tally_en_curso,
        tally_finalizada = tally_finalizada + excluded.tally_finalizada,
        tally_cancelada  = tally_cancelada  + excluded.tally_cancelada;
    INSERT INTO vehicle_tally (id_vehicle, tally_pendiente, tally_en_curso, tally_finalizada, tally_cancelada)
    VALUES (new.id_vehicle, new.status = 'PENDIENTE', new.status = 'EN CURSO', new.status = 'FINALIZADA', new.status = 'CANCELADA')
    ON CONFLICT (id_vehicle) DO UPDATE SET
        tally_pendiente  = tally_pendiente  + excluded.tally_pendiente,
        tally_en_curso   = tally_en_curso   + excluded.tally_en_curso,
        tally_finalizada = tally_finalizada + excluded.tally_finalizada,
        tally_cancelada  = tally_cancelada  + excluded.tally_cancelada;
END;
