-- The whole data model of the spec (Resources and their fields), SQLite dialect.
-- Times are DATETIME in UTC (the driver writes them with _time_format=sqlite);
-- money is integer cents, because SQLite does not enforce NUMERIC(10,2).

CREATE TABLE customer (
    id_customer   INTEGER PRIMARY KEY,
    full_name     TEXT    NOT NULL DEFAULT '' CHECK (length(full_name) <= 100),
    phone         TEXT    UNIQUE CHECK (phone IS NULL OR (length(phone) BETWEEN 1 AND 20)),
    email         TEXT    CHECK (email IS NULL OR length(email) <= 254),
    type          TEXT    NOT NULL DEFAULT 'NO-REGISTRADO'
                          CHECK (type IN ('ADMIN', 'REGISTRADO', 'NO-REGISTRADO')),
    password_hash TEXT,
    created_at    DATETIME NOT NULL
);
-- Accounts log in by email, case-insensitively; booking-flow customers may share one.
CREATE UNIQUE INDEX customer_account_email ON customer (lower(email))
    WHERE type <> 'NO-REGISTRADO' AND email IS NOT NULL;
CREATE INDEX customer_name_lower ON customer (lower(full_name));

CREATE TABLE vehicle (
    id_vehicle    INTEGER PRIMARY KEY,
    license_plate TEXT NOT NULL UNIQUE CHECK (length(license_plate) BETWEEN 1 AND 15),
    brand         TEXT NOT NULL DEFAULT 'Desconocida' CHECK (length(brand) <= 50),
    model         TEXT NOT NULL DEFAULT 'Desconocido' CHECK (length(model) <= 50),
    color         TEXT NOT NULL DEFAULT 'No color' CHECK (length(color) <= 50),
    type          TEXT NOT NULL CHECK (length(type) BETWEEN 1 AND 50),
    created_at    DATETIME NOT NULL
);

CREATE TABLE customer_vehicle (
    id_customer INTEGER NOT NULL REFERENCES customer (id_customer) ON DELETE CASCADE,
    id_vehicle  INTEGER NOT NULL REFERENCES vehicle (id_vehicle) ON DELETE CASCADE,
    created_at  DATETIME NOT NULL,
    PRIMARY KEY (id_customer, id_vehicle)
);
CREATE INDEX customer_vehicle_vehicle ON customer_vehicle (id_vehicle);

CREATE TABLE main_service (
    id_main_service INTEGER PRIMARY KEY,
    name            TEXT    NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
    description     TEXT    NOT NULL DEFAULT '' CHECK (length(description) <= 500),
    active          BOOLEAN NOT NULL DEFAULT 1
);

CREATE TABLE service_rate (
    id_rate           INTEGER PRIMARY KEY,
    id_main_service   INTEGER NOT NULL REFERENCES main_service (id_main_service) ON DELETE CASCADE,
    min_days          INTEGER NOT NULL CHECK (min_days >= 1),
    max_days          INTEGER NOT NULL,
    daily_price_cents INTEGER NOT NULL CHECK (daily_price_cents >= 0),
    CHECK (max_days >= min_days)
);
CREATE INDEX service_rate_service ON service_rate (id_main_service, min_days);

-- multiplier_bp is the multiplier in ten-thousandths: 1.25 is stored as 12500.
CREATE TABLE vehicle_type_coefficient (
    vehicle_type  TEXT    PRIMARY KEY CHECK (length(vehicle_type) BETWEEN 1 AND 50),
    multiplier_bp INTEGER NOT NULL CHECK (multiplier_bp > 0)
);

CREATE TABLE additional_service (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    active      BOOLEAN NOT NULL DEFAULT 1
);

CREATE TABLE reservation (
    id_reservation    INTEGER PRIMARY KEY,
    reservation_date  DATETIME NOT NULL,
    entry_date        DATETIME NOT NULL,
    exit_date         DATETIME,
    status            TEXT    NOT NULL DEFAULT 'PENDIENTE'
                              CHECK (status IN ('PENDIENTE', 'EN CURSO', 'FINALIZADA', 'CANCELADA')),
    total_price_cents INTEGER NOT NULL CHECK (total_price_cents BETWEEN 0 AND 99999999999),
    is_paid           BOOLEAN NOT NULL DEFAULT 0,
    payment_method    TEXT    CHECK (payment_method IS NULL OR payment_method IN ('EFECTIVO', 'TARJETA')),
    notes             TEXT    CHECK (notes IS NULL OR length(notes) <= 2000),
    cod_parking_spot  TEXT    CHECK (cod_parking_spot IS NULL OR length(cod_parking_spot) BETWEEN 1 AND 20),
    id_customer       INTEGER NOT NULL REFERENCES customer (id_customer),
    id_vehicle        INTEGER NOT NULL REFERENCES vehicle (id_vehicle),
    id_main_service   INTEGER NOT NULL REFERENCES main_service (id_main_service),
    updated_at        DATETIME NOT NULL,
    CHECK (exit_date IS NULL OR exit_date > entry_date),
    CHECK (status <> 'FINALIZADA' OR (is_paid AND payment_method IS NOT NULL))
);
CREATE INDEX reservation_entry    ON reservation (entry_date);
CREATE INDEX reservation_exit     ON reservation (exit_date) WHERE exit_date IS NOT NULL;
CREATE INDEX reservation_created  ON reservation (reservation_date, id_reservation);
CREATE INDEX reservation_status_created ON reservation (status, reservation_date, id_reservation);
CREATE INDEX reservation_customer ON reservation (id_customer, entry_date);
CREATE INDEX reservation_vehicle  ON reservation (id_vehicle);
CREATE INDEX reservation_spot     ON reservation (cod_parking_spot, entry_date)
    WHERE cod_parking_spot IS NOT NULL AND status IN ('PENDIENTE', 'EN CURSO');

-- price_cents keeps the price the extra had when it was booked, for receipts.
CREATE TABLE reservation_additional_service (
    id_reservation        INTEGER NOT NULL REFERENCES reservation (id_reservation) ON DELETE CASCADE,
    id_additional_service INTEGER NOT NULL REFERENCES additional_service (id),
    price_cents           INTEGER NOT NULL CHECK (price_cents >= 0),
    PRIMARY KEY (id_reservation, id_additional_service)
);

CREATE TABLE photo_evidence (
    id_photo       INTEGER PRIMARY KEY,
    id_reservation INTEGER NOT NULL REFERENCES reservation (id_reservation) ON DELETE CASCADE,
    file_path      TEXT    NOT NULL CHECK (length(file_path) BETWEEN 1 AND 2048),
    description    TEXT    CHECK (description IS NULL OR length(description) <= 255),
    taken_at       DATETIME NOT NULL
);
CREATE INDEX photo_evidence_reservation ON photo_evidence (id_reservation, taken_at);

-- The transactional outbox (docs/notifications.md#delivery); its rows are also the notification history.
CREATE TABLE notification (
    id              INTEGER PRIMARY KEY,
    id_reservation  INTEGER REFERENCES reservation (id_reservation) ON DELETE CASCADE,
    type            TEXT    NOT NULL CHECK (type IN ('booking_confirmation', 'vehicle_entry', 'reservation_modified', 'invoice')),
    delivery_id     TEXT    NOT NULL UNIQUE,
    payload         TEXT    NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'skipped')),
    attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at DATETIME NOT NULL,
    locked_until    DATETIME,
    created_at      DATETIME NOT NULL,
    sent_at         DATETIME,
    last_error      TEXT
);
CREATE INDEX notification_due ON notification (next_attempt_at) WHERE status = 'pending';
CREATE INDEX notification_reservation ON notification (id_reservation, created_at);

-- Web sessions: the cookie holds a random token; only its SHA-256 is stored.
CREATE TABLE web_session (
    token_hash   TEXT     PRIMARY KEY,
    id_customer  INTEGER  NOT NULL REFERENCES customer (id_customer) ON DELETE CASCADE,
    created_at   DATETIME NOT NULL,
    last_seen_at DATETIME NOT NULL,
    expires_at   DATETIME NOT NULL
);
CREATE INDEX web_session_customer ON web_session (id_customer);
CREATE INDEX web_session_expires ON web_session (expires_at);

-- API bearer tokens (docs/accounts.md#api-tokens), stored as SHA-256 hashes.
CREATE TABLE api_token (
    token_hash   TEXT     PRIMARY KEY,
    id_customer  INTEGER  NOT NULL REFERENCES customer (id_customer) ON DELETE CASCADE,
    session_hash TEXT,
    created_at   DATETIME NOT NULL,
    expires_at   DATETIME NOT NULL,
    revoked_at   DATETIME
);
CREATE INDEX api_token_customer ON api_token (id_customer);
CREATE INDEX api_token_session ON api_token (session_hash) WHERE session_hash IS NOT NULL;
