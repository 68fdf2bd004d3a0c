-- One customer per phone, one vehicle per plate (docs/input-rules.md), PostgreSQL dialect.
--
-- Phones are stored in E.164 and plates in their canonical form. Rows stored before
-- that rule are rewritten after this migration by a step in Go (store.NormaliseStored:
-- the phone rules are libphonenumber's, which SQL cannot run), once, recorded in
-- schema_migrations as '0006_normalise.data'. Where two rows become one, they are
-- merged when that exposes nobody (two NO-REGISTRADO customers; two vehicles of one
-- type); any other collision is kept apart, the later row keeping its old form, and
-- listed here for staff to resolve by hand (`parking duplicates list`).
CREATE TABLE normalisation_conflict (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind         TEXT     NOT NULL CHECK (kind IN ('customer', 'vehicle')),
    -- the row that holds the canonical form (NULL: the stored value cannot be read)
    kept_id      BIGINT,
    -- the row left with its old form
    other_id     BIGINT   NOT NULL,
    stored_value TEXT     NOT NULL,
    normal_value TEXT     NOT NULL DEFAULT '',
    reason       TEXT     NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL
);
