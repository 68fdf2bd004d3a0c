-- Arrival (docs/settings.md#arrival-instructions): how to reach the car park and
-- hand the car over, one text per language the service speaks; blank until staff
-- write them on the settings page.
ALTER TABLE facility_settings ADD COLUMN arrival_es TEXT NOT NULL DEFAULT '';
ALTER TABLE facility_settings ADD COLUMN arrival_en TEXT NOT NULL DEFAULT '';
ALTER TABLE facility_settings ADD COLUMN arrival_de TEXT NOT NULL DEFAULT '';
ALTER TABLE facility_settings ADD COLUMN arrival_fr TEXT NOT NULL DEFAULT '';
