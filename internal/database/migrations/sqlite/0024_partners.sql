-- Sales channels (docs/partners.md): partners that sell through their own API, their
-- keys (stored as SHA-256 hashes, shown once), and each reservation's channel:
-- 'web' (public site, customer area), 'counter' (staff walk-in) or 'partner:<id>'.
-- commission_bp is the partner's commission in hundredths of a percent (0–10000);
-- allotment the most places a day it may hold (NULL: no cap of its own).
CREATE TABLE partner (
    id_partner    INTEGER PRIMARY KEY,
    name          TEXT     NOT NULL,
    commission_bp INTEGER  NOT NULL CHECK (commission_bp BETWEEN 0 AND 10000),
    allotment     INTEGER  CHECK (allotment >= 0),
    active        BOOLEAN  NOT NULL DEFAULT TRUE,
    created_at    DATETIME NOT NULL,
    updated_at    DATETIME NOT NULL
);

CREATE TABLE partner_key (
    id_key       INTEGER PRIMARY KEY,
    id_partner   INTEGER  NOT NULL REFERENCES partner (id_partner) ON DELETE CASCADE,
    key_hash     TEXT     NOT NULL UNIQUE,
    prefix       TEXT     NOT NULL,
    created_at   DATETIME NOT NULL,
    last_used_at DATETIME,
    revoked_at   DATETIME
);
CREATE INDEX partner_key_partner ON partner_key (id_partner);

-- A reservation's channel. Rows made before: a staff walk-in is 'counter', any
-- other 'web'. The partner's reference is unique for that partner; the commission
-- rate is the partner's at booking time (the commission is that rate of the booked
-- price, 0 once cancelled).
ALTER TABLE reservation ADD COLUMN channel TEXT NOT NULL DEFAULT 'web';
ALTER TABLE reservation ADD COLUMN id_partner INTEGER REFERENCES partner (id_partner);
ALTER TABLE reservation ADD COLUMN partner_reference TEXT;
ALTER TABLE reservation ADD COLUMN commission_bp INTEGER;
UPDATE reservation SET channel = 'counter' WHERE booked_by = 'staff';
CREATE UNIQUE INDEX reservation_partner_reference ON reservation (id_partner, partner_reference) WHERE id_partner IS NOT NULL;
CREATE INDEX reservation_partner_entry ON reservation (id_partner, entry_date) WHERE id_partner IS NOT NULL;
CREATE INDEX reservation_channel ON reservation (channel, entry_date);
