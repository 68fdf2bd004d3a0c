-- Receipts (docs/receipts.md), SQLite dialect.
--
-- receipt_series: one counter row per calendar year (in the facility's zone); the
-- finalize transaction takes the next number with an upsert, so numbers are
-- correlative without gaps: a rolled-back finalize rolls its number back too.
-- verifactu_chain: the head of the one chain of VeriFactu records (the position and
-- the fingerprint of the last record); updating it serialises issuers, so every
-- record is chained to the one before it.
-- receipt and receipt_line: the issued receipts, as printed, and their VeriFactu
-- record; never updated or deleted (the triggers refuse it): a correction is a new
-- receipt. invoice_recipient: the customer's tax id and address for a full invoice.
CREATE TABLE receipt_series (
    year INTEGER PRIMARY KEY,
    last INTEGER NOT NULL CHECK (last > 0)
);

CREATE TABLE verifactu_chain (
    id        INTEGER PRIMARY KEY CHECK (id = 1),
    seq       INTEGER NOT NULL,
    last_hash TEXT    NOT NULL
);
INSERT INTO verifactu_chain (id, seq, last_hash) VALUES (1, 0, '');

CREATE TABLE receipt (
    number            TEXT     PRIMARY KEY,
    year              INTEGER  NOT NULL,
    seq               INTEGER  NOT NULL,
    id_reservation    INTEGER  NOT NULL REFERENCES reservation (id_reservation),
    kind              TEXT     NOT NULL CHECK (kind IN ('F1', 'F2', 'F3')),
    replaces          TEXT     REFERENCES receipt (number),
    issued_at         DATETIME NOT NULL,
    seller_name       TEXT     NOT NULL,
    seller_tax_id     TEXT     NOT NULL,
    seller_address    TEXT     NOT NULL,
    recipient_tax_id  TEXT,
    recipient_name    TEXT,
    recipient_address TEXT,
    vat_rate_bp       INTEGER  NOT NULL CHECK (vat_rate_bp BETWEEN 0 AND 10000),
    total_cents       INTEGER  NOT NULL,
    base_cents        INTEGER  NOT NULL,
    vat_cents         INTEGER  NOT NULL,
    payment_method    TEXT     NOT NULL,
    chain_seq         INTEGER  NOT NULL UNIQUE,
    issuer_id         TEXT     NOT NULL,
    issue_date        TEXT     NOT NULL,
    generated_at      TEXT     NOT NULL,
    prev_hash         TEXT     NOT NULL,
    hash              TEXT     NOT NULL,
    UNIQUE (year, seq),
    UNIQUE (id_reservation, kind),
    CHECK (base_cents + vat_cents = total_cents)
);

CREATE TABLE receipt_line (
    number      TEXT    NOT NULL REFERENCES receipt (number),
    position    INTEGER NOT NULL,
    description TEXT    NOT NULL,
    total_cents INTEGER NOT NULL,
    base_cents  INTEGER NOT NULL,
    vat_cents   INTEGER NOT NULL,
    PRIMARY KEY (number, position),
    CHECK (base_cents + vat_cents = total_cents)
);

CREATE TRIGGER receipt_immutable_update BEFORE UPDATE ON receipt
BEGIN SELECT RAISE(ABORT, 'receipts are immutable: issue a new one'); END;
CREATE TRIGGER receipt_immutable_delete BEFORE DELETE ON receipt
BEGIN SELECT RAISE(ABORT, 'receipts are immutable: issue a new one'); END;
CREATE TRIGGER receipt_line_immutable_update BEFORE UPDATE ON receipt_line
BEGIN SELECT RAISE(ABORT, 'receipts are immutable: issue a new one'); END;
CREATE TRIGGER receipt_line_immutable_delete BEFORE DELETE ON receipt_line
BEGIN SELECT RAISE(ABORT, 'receipts are immutable: issue a new one'); END;

CREATE TABLE invoice_recipient (
    id_reservation INTEGER  PRIMARY KEY REFERENCES reservation (id_reservation) ON DELETE CASCADE,
    tax_id         TEXT     NOT NULL,
    name           TEXT     NOT NULL,
    address        TEXT     NOT NULL,
    requested_at   DATETIME NOT NULL
);
