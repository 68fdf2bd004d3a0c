-- History search ignores accents as well as case (docs/admin.md#history),
-- PostgreSQL dialect: "garcia" finds "García". customer_search.name (0003) holds the
-- name folded by parking_fold — lower case, the accents of Latin letters removed —
-- instead of only lower-cased; the search folds the typed term with the same
-- function, so the trigram index keeps answering LIKE '%…%'. A plain SQL function
-- (no extension): deterministic, hence IMMUTABLE.
CREATE FUNCTION parking_fold(t TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT translate(lower(t),
        'áàâäãåāăąéèêëēėęěíìîïīįóòôöõøōőúùûüūůűųýÿçćčñńňśšźżžďđľĺłŕř',
        'aaaaaaaaaeeeeeeeeiiiiiioooooooouuuuuuuuyycccnnnsszzzddlllrr')
$$;

CREATE OR REPLACE FUNCTION customer_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO customer_search (id_customer, name) VALUES (NEW.id_customer, parking_fold(NEW.full_name))
    ON CONFLICT (id_customer) DO UPDATE SET name = excluded.name;
    RETURN NULL;
END
$$;

-- Only the names that change: a name without accents is already in its folded form.
UPDATE customer_search SET name = parking_fold(name) WHERE name <> parking_fold(name);
