-- Uploaded photos and the hand-over record (docs/photos.md), sqlite dialect.
-- A photo belongs to a phase: 'entrada' (the spec's five, required to start) or
-- 'salida' (at check-out). storage_key names the photo's blobs in the media store
-- (internal/media) when it was uploaded; a photo given by URL (docs/photos.md#the-upload) has none.
ALTER TABLE photo_evidence ADD COLUMN phase TEXT NOT NULL DEFAULT 'entrada' CHECK (phase IN ('entrada', 'salida'));
ALTER TABLE photo_evidence ADD COLUMN storage_key TEXT CHECK (storage_key IS NULL OR length(storage_key) BETWEEN 1 AND 200);

-- The hand-over record: mileage, fuel or charge level (percent) and damage notes,
-- at the start ('entrada') and at finalize ('salida'); one row per phase.
CREATE TABLE reservation_handover (
    id_reservation INTEGER NOT NULL REFERENCES reservation (id_reservation) ON DELETE CASCADE,
    phase          TEXT    NOT NULL CHECK (phase IN ('entrada', 'salida')),
    mileage_km     INTEGER CHECK (mileage_km IS NULL OR mileage_km BETWEEN 0 AND 9999999),
    fuel_percent   INTEGER CHECK (fuel_percent IS NULL OR fuel_percent BETWEEN 0 AND 100),
    damage_notes   TEXT    CHECK (damage_notes IS NULL OR length(damage_notes) <= 2000),
    recorded_at    DATETIME NOT NULL,
    PRIMARY KEY (id_reservation, phase)
);
