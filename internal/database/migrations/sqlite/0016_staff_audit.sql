-- Staff accounts and the audit trail, SQLite dialect.
-- A disabled account (disabled_at set) cannot log in; its sessions and tokens are
-- deleted when it is disabled, and the session and token lookups skip it anyway.
ALTER TABLE customer ADD COLUMN disabled_at DATETIME;

-- The audit trail: one row per change, written in the transaction of the change.
-- The actor is copied (kind, id, name, email) so the trail still reads after the
-- account changes; no foreign keys, so nothing here blocks erasing data elsewhere.
-- changes is a JSON array of {"field","before","after"}.
CREATE TABLE audit_entry (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    at             DATETIME NOT NULL,
    actor_kind     TEXT     NOT NULL,
    actor_id       INTEGER,
    actor_name     TEXT     NOT NULL,
    actor_email    TEXT,
    action         TEXT     NOT NULL,
    entity         TEXT     NOT NULL,
    entity_id      TEXT     NOT NULL,
    reservation_id INTEGER,
    changes        TEXT     NOT NULL
);
CREATE INDEX audit_entry_reservation ON audit_entry (reservation_id, id) WHERE reservation_id IS NOT NULL;
CREATE INDEX audit_entry_actor ON audit_entry (actor_id, id);
CREATE INDEX audit_entry_at ON audit_entry (at);
