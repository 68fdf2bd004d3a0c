-- The reports' summary of closed hours (docs/reports.md#summary), PostgreSQL dialect: the figures a
-- report sums, per UTC hour, for every hour before report_summary.upto; a report reads these
-- rows for those hours and the tables themselves only after upto. The triggers below keep the
-- summarised hours exact in the writing transaction itself: a change whose hour is before upto
-- (an old booking cancelled, a stay finished, a receipt issued) is added here; a change after it
-- costs nothing. The reports move upto forward (store.Reports.Rollup).
CREATE TABLE report_summary (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    upto BIGINT NOT NULL -- the first hour not summarised, in hours since 1970-01-01 00:00 UTC; 0: none yet
);
INSERT INTO report_summary (id, upto) VALUES (1, 0);
-- Per hour (counted from 1970-01-01 00:00 UTC): the bookings made in it (how many now cancelled, their summed
-- lead in seconds); the finished stays entered in it (their summed length); and, of the
-- finished stays that end at or after they start, how many start and end in it.
CREATE TABLE report_hour (
    hour         BIGINT PRIMARY KEY,
    made         BIGINT NOT NULL DEFAULT 0,
    cancelled    BIGINT NOT NULL DEFAULT 0,
    lead_seconds BIGINT NOT NULL DEFAULT 0,
    finished     BIGINT NOT NULL DEFAULT 0,
    stay_seconds BIGINT NOT NULL DEFAULT 0,
    starts       BIGINT NOT NULL DEFAULT 0,
    ends         BIGINT NOT NULL DEFAULT 0
);
-- The sales receipts (replaces IS NULL) issued in each UTC hour, by the reservation's main
-- service and channel.
CREATE TABLE report_revenue (
    hour            BIGINT NOT NULL,
    id_main_service INTEGER NOT NULL,
    channel         TEXT    NOT NULL,
    receipts        BIGINT NOT NULL DEFAULT 0,
    total_cents     BIGINT NOT NULL DEFAULT 0,
    base_cents      BIGINT NOT NULL DEFAULT 0,
    vat_cents       BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (hour, id_main_service, channel)
);
-- The finished stays a summary cannot spread (no end, or an end before the start): read
-- one by one, normally none.
CREATE INDEX reservation_report_irregular ON reservation (checked_in_at, entry_date, checked_out_at, exit_date)
    WHERE status = 'FINALIZADA' AND (COALESCE(checked_out_at, exit_date) IS NULL
        OR COALESCE(checked_out_at, exit_date) < COALESCE(checked_in_at, entry_date));
-- A writer takes the lock (of this schema's summary) shared, and reads upto after it: Rollup takes it exclusively, so
-- it sums the hours it adds only once every writer that could still touch them has committed,
-- and a writer that comes after sees the new upto (docs/reports.md#summary).
CREATE FUNCTION report_upto() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(8733001 * CAST(4294967296 AS BIGINT) + CAST(CAST('report_summary'::regclass AS oid) AS BIGINT));
    RETURN (SELECT upto FROM report_summary WHERE id = 1);
END $$;
CREATE FUNCTION report_hour_rows(r reservation, s bigint)
RETURNS TABLE (h bigint, made bigint, cancelled bigint, lead bigint, finished bigint, stay bigint, starts bigint, ends bigint)
LANGUAGE sql STABLE AS $$
    SELECT CAST(FLOOR(EXTRACT(EPOCH FROM r.reservation_date) / 3600) AS BIGINT) AS h, s AS made, s * (CASE WHEN r.status = 'CANCELADA' THEN 1 ELSE 0 END) AS cancelled, s * (CAST(FLOOR(EXTRACT(EPOCH FROM r.entry_date)) AS BIGINT) - CAST(FLOOR(EXTRACT(EPOCH FROM r.reservation_date)) AS BIGINT)) AS lead, CAST(0 AS BIGINT) AS finished, CAST(0 AS BIGINT) AS stay, CAST(0 AS BIGINT) AS starts, CAST(0 AS BIGINT) AS ends
    UNION ALL SELECT CAST(FLOOR(EXTRACT(EPOCH FROM r.entry_date) / 3600) AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT), s, s * (CAST(FLOOR(EXTRACT(EPOCH FROM COALESCE(r.checked_out_at, r.exit_date))) AS BIGINT) - CAST(FLOOR(EXTRACT(EPOCH FROM COALESCE(r.checked_in_at, r.entry_date))) AS BIGINT)), CAST(0 AS BIGINT), CAST(0 AS BIGINT) WHERE r.status = 'FINALIZADA' AND COALESCE(r.checked_out_at, r.exit_date) IS NOT NULL
    UNION ALL SELECT CAST(FLOOR(EXTRACT(EPOCH FROM COALESCE(r.checked_in_at, r.entry_date)) / 3600) AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT), s, CAST(0 AS BIGINT) WHERE r.status = 'FINALIZADA' AND COALESCE(r.checked_out_at, r.exit_date) IS NOT NULL AND COALESCE(r.checked_out_at, r.exit_date) >= COALESCE(r.checked_in_at, r.entry_date)
    UNION ALL SELECT CAST(FLOOR(EXTRACT(EPOCH FROM COALESCE(r.checked_out_at, r.exit_date)) / 3600) AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT), s WHERE r.status = 'FINALIZADA' AND COALESCE(r.checked_out_at, r.exit_date) IS NOT NULL AND COALESCE(r.checked_out_at, r.exit_date) >= COALESCE(r.checked_in_at, r.entry_date)
$$;
CREATE FUNCTION report_reservation_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    w bigint := report_upto();
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO report_hour (hour, made, cancelled, lead_seconds, finished, stay_seconds, starts, ends)
    SELECT h, SUM(made), SUM(cancelled), SUM(lead), SUM(finished), SUM(stay), SUM(starts), SUM(ends) FROM (
        SELECT * FROM report_hour_rows(NEW, 1)) x
    WHERE h < w GROUP BY h
    ON CONFLICT (hour) DO UPDATE SET made = report_hour.made + excluded.made, cancelled = report_hour.cancelled + excluded.cancelled,
        lead_seconds = report_hour.lead_seconds + excluded.lead_seconds, finished = report_hour.finished + excluded.finished,
        stay_seconds = report_hour.stay_seconds + excluded.stay_seconds, starts = report_hour.starts + excluded.starts,
        ends = report_hour.ends + excluded.ends;
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO report_hour (hour, made, cancelled, lead_seconds, finished, stay_seconds, starts, ends)
    SELECT h, SUM(made), SUM(cancelled), SUM(lead), SUM(finished), SUM(stay), SUM(starts), SUM(ends) FROM (
        SELECT * FROM report_hour_rows(NEW, 1)
        UNION ALL SELECT * FROM report_hour_rows(OLD, -1)) x
    WHERE h < w GROUP BY h
    ON CONFLICT (hour) DO UPDATE SET made = report_hour.made + excluded.made, cancelled = report_hour.cancelled + excluded.cancelled,
        lead_seconds = report_hour.lead_seconds + excluded.lead_seconds, finished = report_hour.finished + excluded.finished,
        stay_seconds = report_hour.stay_seconds + excluded.stay_seconds, starts = report_hour.starts + excluded.starts,
        ends = report_hour.ends + excluded.ends;
        IF OLD.id_main_service <> NEW.id_main_service OR OLD.channel <> NEW.channel THEN
            INSERT INTO report_revenue (hour, id_main_service, channel, receipts, total_cents, base_cents, vat_cents)
    SELECT h, svc, ch, SUM(n), SUM(t), SUM(b), SUM(v) FROM (
        SELECT CAST(FLOOR(EXTRACT(EPOCH FROM rc.issued_at) / 3600) AS BIGINT) AS h, OLD.id_main_service AS svc, OLD.channel AS ch, -1 AS n, -1 * rc.total_cents AS t, -1 * rc.base_cents AS b, -1 * rc.vat_cents AS v
            FROM receipt rc WHERE rc.id_reservation = NEW.id_reservation AND rc.replaces IS NULL
        UNION ALL SELECT CAST(FLOOR(EXTRACT(EPOCH FROM rc.issued_at) / 3600) AS BIGINT) AS h, NEW.id_main_service AS svc, NEW.channel AS ch, 1 AS n, 1 * rc.total_cents AS t, 1 * rc.base_cents AS b, 1 * rc.vat_cents AS v
            FROM receipt rc WHERE rc.id_reservation = NEW.id_reservation AND rc.replaces IS NULL) x
    WHERE h < w GROUP BY h, svc, ch
    ON CONFLICT (hour, id_main_service, channel) DO UPDATE SET receipts = report_revenue.receipts + excluded.receipts, total_cents = report_revenue.total_cents + excluded.total_cents,
        base_cents = report_revenue.base_cents + excluded.base_cents, vat_cents = report_revenue.vat_cents + excluded.vat_cents;
        END IF;
    ELSE
        INSERT INTO report_hour (hour, made, cancelled, lead_seconds, finished, stay_seconds, starts, ends)
    SELECT h, SUM(made), SUM(cancelled), SUM(lead), SUM(finished), SUM(stay), SUM(starts), SUM(ends) FROM (
        SELECT * FROM report_hour_rows(OLD, -1)) x
    WHERE h < w GROUP BY h
    ON CONFLICT (hour) DO UPDATE SET made = report_hour.made + excluded.made, cancelled = report_hour.cancelled + excluded.cancelled,
        lead_seconds = report_hour.lead_seconds + excluded.lead_seconds, finished = report_hour.finished + excluded.finished,
        stay_seconds = report_hour.stay_seconds + excluded.stay_seconds, starts = report_hour.starts + excluded.starts,
        ends = report_hour.ends + excluded.ends;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER report_reservation_insert AFTER INSERT OR DELETE ON reservation
    FOR EACH ROW EXECUTE FUNCTION report_reservation_change();
CREATE TRIGGER report_reservation_update AFTER UPDATE OF reservation_date, entry_date, exit_date, status, checked_in_at,
    checked_out_at, id_main_service, channel ON reservation
    FOR EACH ROW EXECUTE FUNCTION report_reservation_change();
CREATE FUNCTION report_receipt_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    w bigint := report_upto();
BEGIN
    INSERT INTO report_revenue (hour, id_main_service, channel, receipts, total_cents, base_cents, vat_cents)
    SELECT CAST(FLOOR(EXTRACT(EPOCH FROM NEW.issued_at) / 3600) AS BIGINT), res.id_main_service, res.channel, 1,
        NEW.total_cents, NEW.base_cents, NEW.vat_cents
    FROM reservation res WHERE res.id_reservation = NEW.id_reservation
        AND CAST(FLOOR(EXTRACT(EPOCH FROM NEW.issued_at) / 3600) AS BIGINT) < w
    ON CONFLICT (hour, id_main_service, channel) DO UPDATE SET receipts = report_revenue.receipts + excluded.receipts, total_cents = report_revenue.total_cents + excluded.total_cents,
        base_cents = report_revenue.base_cents + excluded.base_cents, vat_cents = report_revenue.vat_cents + excluded.vat_cents;
    RETURN NULL;
END $$;
CREATE TRIGGER report_receipt_insert AFTER INSERT ON receipt
    FOR EACH ROW WHEN (NEW.replaces IS NULL) EXECUTE FUNCTION report_receipt_insert();
