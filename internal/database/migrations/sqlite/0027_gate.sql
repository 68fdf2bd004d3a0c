-- Arrival (docs/gate.md): plate-recognition cameras at the gate, SQLite dialect.
-- A reservation's arrived_at is when a camera saw its car come in (the stay is not
-- started by it); exit_grace_minutes is how long after a paid check-out the exit
-- camera still opens. Devices keep only the hash of their token; every event a
-- camera sends is kept 90 days (the hourly sweep deletes older ones by received_at).
ALTER TABLE reservation ADD COLUMN arrived_at DATETIME;
ALTER TABLE facility_settings ADD COLUMN exit_grace_minutes INTEGER NOT NULL DEFAULT 30
    CHECK (exit_grace_minutes >= 0 AND exit_grace_minutes <= 1440);

CREATE TABLE gate_device (
    id_device  INTEGER  PRIMARY KEY,
    name       TEXT     NOT NULL,
    token_hash TEXT     NOT NULL UNIQUE,
    created_at DATETIME NOT NULL
);

CREATE TABLE gate_event (
    id_event       INTEGER  PRIMARY KEY,
    id_device      INTEGER  NOT NULL,
    plate          TEXT     NOT NULL,
    direction      TEXT     NOT NULL CHECK (direction IN ('in', 'out')),
    at             DATETIME NOT NULL,
    open           BOOLEAN  NOT NULL,
    id_reservation INTEGER,
    received_at    DATETIME NOT NULL
);
-- The list (newest first), the sweep (oldest first) and one device's last minute.
CREATE INDEX gate_event_received ON gate_event (received_at);
CREATE INDEX gate_event_device ON gate_event (id_device, received_at);
