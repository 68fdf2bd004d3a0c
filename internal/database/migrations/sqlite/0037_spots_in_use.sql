-- The check-in dialog's free spots (store.Records.FreeSpots, docs/performance.md#free-spots-from-their-own-index)
-- group the spot codes used since a date, in code order. reservation_spot holds only the
-- pending and running stays, so that grouping read the whole reservation table: half a
-- second a detail page with 1,000,000 reservations. This index holds every stay that has a
-- spot, finished ones included; a booking without a spot (every online one) writes nothing
-- to it.
CREATE INDEX reservation_spot_used ON reservation (cod_parking_spot, entry_date)
    WHERE cod_parking_spot IS NOT NULL;
