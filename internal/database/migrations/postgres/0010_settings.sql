-- Facility settings (docs/settings.md): one row, edited on /admin/settings;
-- environment variables only seed it on first start. capacity and sellable are
-- places (0 = unlimited; sellable 0 = the capacity); vat_bp is the VAT rate in
-- basis points (2100 = 21 %); photo_retention_days counts from the end of a stay.
CREATE TABLE facility_settings (
    id                   INTEGER  PRIMARY KEY CHECK (id = 1),
    capacity             INTEGER  NOT NULL DEFAULT 0 CHECK (capacity >= 0),
    sellable             INTEGER  NOT NULL DEFAULT 0 CHECK (sellable >= 0),
    name                 TEXT     NOT NULL DEFAULT '',
    tax_id               TEXT     NOT NULL DEFAULT '',
    address              TEXT     NOT NULL DEFAULT '',
    phone                TEXT     NOT NULL DEFAULT '',
    email                TEXT     NOT NULL DEFAULT '',
    vat_bp               INTEGER  NOT NULL DEFAULT 2100 CHECK (vat_bp >= 0 AND vat_bp <= 10000),
    photo_retention_days INTEGER  NOT NULL DEFAULT 365 CHECK (photo_retention_days >= 1),
    updated_at           TIMESTAMPTZ
);
