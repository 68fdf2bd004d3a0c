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

-- History search (GET /admin/history?search=): partial, case-insensitive match on the
-- customer's name or the plate. Trigram indexes answer ILIKE '%…%' for terms of three
-- characters or more without scanning the tables.
CREATE INDEX customer_name_trgm ON customer USING gin (full_name gin_trgm_ops);
CREATE INDEX vehicle_plate_trgm ON vehicle USING gin (license_plate gin_trgm_ops);
