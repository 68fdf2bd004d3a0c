-- Administrator operations (spot rule, history search), PostgreSQL dialect.
-- Both extensions ship with PostgreSQL's contrib and are "trusted" since 13, so the
-- database owner may create them; IF NOT EXISTS keeps an existing one (tests create
-- them once in the public schema).
CREATE EXTENSION IF NOT EXISTS btree_gist;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Spots are physical: two reservations that are not terminal and whose stays overlap
-- cannot hold the same spot. A stay is [entry, exit); an open exit (NULL) is an
-- unbounded upper end, so it overlaps everything after its entry. Touching stays
-- (one leaves at 10:00, the next arrives at 10:00) do not overlap. A violation is
-- SQLSTATE 23P01; the service checks first, inside its transaction, to name the
-- other reservation, and this constraint is the guarantee behind that check.
ALTER TABLE reservation ADD CONSTRAINT reservation_spot_no_overlap
    EXCLUDE USING gist (cod_parking_spot WITH =, tstzrange(entry_date, exit_date, '[)') WITH &&)
    WHERE (cod_parking_spot IS NOT NULL AND status IN ('PENDIENTE', 'EN CURSO'));

-- History search (GET /admin/history?search=): partial, case-insensitive match on
-- the customer's name or the plate, with the number of matching reservations.
-- customer_search and vehicle_search are narrow companions of customer and vehicle:
-- the lower-cased text, with a trigram GIN index that answers LIKE '%…%' for terms
-- of three characters or more, and the reservation tallies per status, kept by a
-- trigger in the same transaction as every reservation write. A search counts its
-- matches by adding up the tallies of the matching rows, which the index recheck
-- reads anyway, instead of visiting each reservation: a common surname matches tens
-- of thousands of them. Keeping them apart leaves customer and vehicle (and their
-- indexes) untouched by the tally updates, which stay HOT thanks to the fillfactor.
CREATE TABLE customer_search (
    id_customer      BIGINT  PRIMARY KEY REFERENCES customer (id_customer) ON DELETE CASCADE,
    name             TEXT    NOT NULL,
    tally_pendiente  INTEGER NOT NULL DEFAULT 0,
    tally_en_curso   INTEGER NOT NULL DEFAULT 0,
    tally_finalizada INTEGER NOT NULL DEFAULT 0,
    tally_cancelada  INTEGER NOT NULL DEFAULT 0
) WITH (fillfactor = 80);
CREATE TABLE vehicle_search (
    id_vehicle       BIGINT  PRIMARY KEY REFERENCES vehicle (id_vehicle) ON DELETE CASCADE,
    plate            TEXT    NOT NULL,
    tally_pendiente  INTEGER NOT NULL DEFAULT 0,
    tally_en_curso   INTEGER NOT NULL DEFAULT 0,
    tally_finalizada INTEGER NOT NULL DEFAULT 0,
    tally_cancelada  INTEGER NOT NULL DEFAULT 0
) WITH (fillfactor = 80);

INSERT INTO customer_search (id_customer, name, tally_pendiente, tally_en_curso, tally_finalizada, tally_cancelada)
SELECT c.id_customer, lower(c.full_name), coalesce(t.p, 0), coalesce(t.e, 0), coalesce(t.f, 0), coalesce(t.x, 0)
FROM customer c LEFT JOIN (
    SELECT id_customer,
           count(*) FILTER (WHERE status = 'PENDIENTE') AS p, count(*) FILTER (WHERE status = 'EN CURSO') AS e,
           count(*) FILTER (WHERE status = 'FINALIZADA') AS f, count(*) FILTER (WHERE status = 'CANCELADA') AS x
    FROM reservation GROUP BY id_customer) t ON t.id_customer = c.id_customer;
INSERT INTO vehicle_search (id_vehicle, plate, tally_pendiente, tally_en_curso, tally_finalizada, tally_cancelada)
SELECT v.id_vehicle, lower(v.license_plate), coalesce(t.p, 0), coalesce(t.e, 0), coalesce(t.f, 0), coalesce(t.x, 0)
FROM vehicle v LEFT JOIN (
    SELECT id_vehicle,
           count(*) FILTER (WHERE status = 'PENDIENTE') AS p, count(*) FILTER (WHERE status = 'EN CURSO') AS e,
           count(*) FILTER (WHERE status = 'FINALIZADA') AS f, count(*) FILTER (WHERE status = 'CANCELADA') AS x
    FROM reservation GROUP BY id_vehicle) t ON t.id_vehicle = v.id_vehicle;

CREATE INDEX customer_search_name ON customer_search USING gin (name gin_trgm_ops);
CREATE INDEX vehicle_search_plate ON vehicle_search USING gin (plate gin_trgm_ops);

CREATE FUNCTION customer_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO customer_search (id_customer, name) VALUES (NEW.id_customer, lower(NEW.full_name))
    ON CONFLICT (id_customer) DO UPDATE SET name = excluded.name;
    RETURN NULL;
END
$$;
CREATE TRIGGER customer_search_sync AFTER INSERT OR UPDATE OF full_name ON customer
    FOR EACH ROW EXECUTE FUNCTION customer_search_sync();

CREATE FUNCTION vehicle_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO vehicle_search (id_vehicle, plate) VALUES (NEW.id_vehicle, lower(NEW.license_plate))
    ON CONFLICT (id_vehicle) DO UPDATE SET plate = excluded.plate;
    RETURN NULL;
END
$$;
CREATE TRIGGER vehicle_search_sync AFTER INSERT OR UPDATE OF license_plate ON vehicle
    FOR EACH ROW EXECUTE FUNCTION vehicle_search_sync();

-- The whole history's count, per status, split over 16 shards (by reservation id)
-- so that concurrent bookings rarely wait for the same row: the history without a
-- search or dates is one SUM of at most 16 rows, not a count of a million.
CREATE TABLE reservation_tally (
    status TEXT     NOT NULL,
    shard  SMALLINT NOT NULL,
    n      BIGINT   NOT NULL DEFAULT 0,
    PRIMARY KEY (status, shard)
);
INSERT INTO reservation_tally (status, shard)
SELECT s, g FROM unnest(ARRAY['PENDIENTE', 'EN CURSO', 'FINALIZADA', 'CANCELADA']) s, generate_series(0, 15) g;
UPDATE reservation_tally t SET n = c.n
FROM (SELECT status, (id_reservation % 16)::smallint AS shard, count(*) AS n FROM reservation GROUP BY 1, 2) c
WHERE t.status = c.status AND t.shard = c.shard;

-- The tallies move by statement-level triggers over the statement's transition
-- tables: one UPDATE per table however many reservations a statement writes (a
-- bulk load updates each row once per statement, not once per reservation), and an
-- UPDATE of reservation that changes no status, customer or vehicle writes nothing.
-- A status change takes the old tally row before the new one, in the order of the
-- life cycle (PENDIENTE → EN CURSO → FINALIZADA, PENDIENTE → CANCELADA), so two
-- transactions never wait for each other's shard rows in opposite orders.
CREATE FUNCTION reservation_tally_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE customer_search t SET
        tally_pendiente  = t.tally_pendiente  + d.p,
        tally_en_curso   = t.tally_en_curso   + d.e,
        tally_finalizada = t.tally_finalizada + d.f,
        tally_cancelada  = t.tally_cancelada  + d.x
    FROM (SELECT id_customer, count(*) FILTER (WHERE status = 'PENDIENTE') AS p, count(*) FILTER (WHERE status = 'EN CURSO') AS e,
                 count(*) FILTER (WHERE status = 'FINALIZADA') AS f, count(*) FILTER (WHERE status = 'CANCELADA') AS x
          FROM new_rows GROUP BY id_customer) d
    WHERE t.id_customer = d.id_customer;
    UPDATE vehicle_search t SET
        tally_pendiente  = t.tally_pendiente  + d.p,
        tally_en_curso   = t.tally_en_curso   + d.e,
        tally_finalizada = t.tally_finalizada + d.f,
        tally_cancelada  = t.tally_cancelada  + d.x
    FROM (SELECT id_vehicle, count(*) FILTER (WHERE status = 'PENDIENTE') AS p, count(*) FILTER (WHERE status = 'EN CURSO') AS e,
                 count(*) FILTER (WHERE status = 'FINALIZADA') AS f, count(*) FILTER (WHERE status = 'CANCELADA') AS x
          FROM new_rows GROUP BY id_vehicle) d
    WHERE t.id_vehicle = d.id_vehicle;
    UPDATE reservation_tally t SET n = t.n + d.n
    FROM (SELECT status, (id_reservation % 16)::smallint AS shard, count(*) AS n FROM new_rows GROUP BY 1, 2) d
    WHERE t.status = d.status AND t.shard = d.shard;
    RETURN NULL;
END
$$;
CREATE FUNCTION reservation_tally_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE customer_search t SET
        tally_pendiente  = t.tally_pendiente  - d.p,
        tally_en_curso   = t.tally_en_curso   - d.e,
        tally_finalizada = t.tally_finalizada - d.f,
        tally_cancelada  = t.tally_cancelada  - d.x
    FROM (SELECT id_customer, count(*) FILTER (WHERE status = 'PENDIENTE') AS p, count(*) FILTER (WHERE status = 'EN CURSO') AS e,
                 count(*) FILTER (WHERE status = 'FINALIZADA') AS f, count(*) FILTER (WHERE status = 'CANCELADA') AS x
          FROM old_rows GROUP BY id_customer) d
    WHERE t.id_customer = d.id_customer;
    UPDATE vehicle_search t SET
        tally_pendiente  = t.tally_pendiente  - d.p,
        tally_en_curso   = t.tally_en_curso   - d.e,
        tally_finalizada = t.tally_finalizada - d.f,
        tally_cancelada  = t.tally_cancelada  - d.x
    FROM (SELECT id_vehicle, count(*) FILTER (WHERE status = 'PENDIENTE') AS p, count(*) FILTER (WHERE status = 'EN CURSO') AS e,
                 count(*) FILTER (WHERE status = 'FINALIZADA') AS f, count(*) FILTER (WHERE status = 'CANCELADA') AS x
          FROM old_rows GROUP BY id_vehicle) d
    WHERE t.id_vehicle = d.id_vehicle;
    UPDATE reservation_tally t SET n = t.n - d.n
    FROM (SELECT status, (id_reservation % 16)::smallint AS shard, count(*) AS n FROM old_rows GROUP BY 1, 2) d
    WHERE t.status = d.status AND t.shard = d.shard;
    RETURN NULL;
END
$$;
CREATE FUNCTION reservation_tally_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE customer_search t SET
        tally_pendiente  = t.tally_pendiente  - d.p,
        tally_en_curso   = t.tally_en_curso   - d.e,
        tally_finalizada = t.tally_finalizada - d.f,
        tally_cancelada  = t.tally_cancelada  - d.x
    FROM (SELECT id_customer, count(*) FILTER (WHERE status = 'PENDIENTE') AS p, count(*) FILTER (WHERE status = 'EN CURSO') AS e,
                 count(*) FILTER (WHERE status = 'FINALIZADA') AS f, count(*) FILTER (WHERE status = 'CANCELADA') AS x
          FROM (SELECT o.* FROM old_rows o JOIN new_rows n USING (id_reservation)
          WHERE o.status <> n.status OR o.id_customer <> n.id_customer OR o.id_vehicle <> n.id_vehicle) c GROUP BY id_customer) d
    WHERE t.id_customer = d.id_customer;
    UPDATE vehicle_search t SET
        tally_pendiente  = t.tally_pendiente  - d.p,
        tally_en_curso   = t.tally_en_curso   - d.e,
        tally_finalizada = t.tally_finalizada - d.f,
        tally_cancelada  = t.tally_cancelada  - d.x
    FROM (SELECT id_vehicle, count(*) FILTER (WHERE status = 'PENDIENTE') AS p, count(*) FILTER (WHERE status = 'EN CURSO') AS e,
                 count(*) FILTER (WHERE status = 'FINALIZADA') AS f, count(*) FILTER (WHERE status = 'CANCELADA') AS x
          FROM (SELECT o.* FROM old_rows o JOIN new_rows n USING (id_reservation)
          WHERE o.status <> n.status OR o.id_customer <> n.id_customer OR o.id_vehicle <> n.id_vehicle) c GROUP BY id_vehicle) d
    WHERE t.id_vehicle = d.id_vehicle;
    UPDATE reservation_tally t SET n = t.n - d.n
    FROM (SELECT status, (id_reservation % 16)::smallint AS shard, count(*) AS n FROM (SELECT o.* FROM old_rows o JOIN new_rows n USING (id_reservation)
          WHERE o.status <> n.status OR o.id_customer <> n.id_customer OR o.id_vehicle <> n.id_vehicle) c GROUP BY 1, 2) d
    WHERE t.status = d.status AND t.shard = d.shard;
    UPDATE customer_search t SET
        tally_pendiente  = t.tally_pendiente  + d.p,
        tally_en_curso   = t.tally_en_curso   + d.e,
        tally_finalizada = t.tally_finalizada + d.f,
        tally_cancelada  = t.tally_cancelada  + d.x
    FROM (SELECT id_customer, count(*) FILTER (WHERE status = 'PENDIENTE') AS p, count(*) FILTER (WHERE status = 'EN CURSO') AS e,
                 count(*) FILTER (WHERE status = 'FINALIZADA') AS f, count(*) FILTER (WHERE status = 'CANCELADA') AS x
          FROM (SELECT n.* FROM old_rows o JOIN new_rows n USING (id_reservation)
          WHERE o.status <> n.status OR o.id_customer <> n.id_customer OR o.id_vehicle <> n.id_vehicle) c GROUP BY id_customer) d
    WHERE t.id_customer = d.id_customer;
    UPDATE vehicle_search t SET
        tally_pendiente  = t.tally_pendiente  + d.p,
        tally_en_curso   = t.tally_en_curso   + d.e,
        tally_finalizada = t.tally_finalizada + d.f,
        tally_cancelada  = t.tally_cancelada  + d.x
    FROM (SELECT id_vehicle, count(*) FILTER (WHERE status = 'PENDIENTE') AS p, count(*) FILTER (WHERE status = 'EN CURSO') AS e,
                 count(*) FILTER (WHERE status = 'FINALIZADA') AS f, count(*) FILTER (WHERE status = 'CANCELADA') AS x
          FROM (SELECT n.* FROM old_rows o JOIN new_rows n USING (id_reservation)
          WHERE o.status <> n.status OR o.id_customer <> n.id_customer OR o.id_vehicle <> n.id_vehicle) c GROUP BY id_vehicle) d
    WHERE t.id_vehicle = d.id_vehicle;
    UPDATE reservation_tally t SET n = t.n + d.n
    FROM (SELECT status, (id_reservation % 16)::smallint AS shard, count(*) AS n FROM (SELECT n.* FROM old_rows o JOIN new_rows n USING (id_reservation)
          WHERE o.status <> n.status OR o.id_customer <> n.id_customer OR o.id_vehicle <> n.id_vehicle) c GROUP BY 1, 2) d
    WHERE t.status = d.status AND t.shard = d.shard;
    RETURN NULL;
END
$$;
CREATE TRIGGER reservation_tally_insert AFTER INSERT ON reservation
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION reservation_tally_insert();
CREATE TRIGGER reservation_tally_delete AFTER DELETE ON reservation
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION reservation_tally_delete();
CREATE TRIGGER reservation_tally_update AFTER UPDATE ON reservation
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION reservation_tally_update();
