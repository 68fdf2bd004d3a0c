-- The reports' summary of closed hours (docs/reports.md#summary), SQLite dialect: the figures a
-- report sums, per UTC hour, for every hour before report_summary.upto; a report reads these
-- rows for those hours and the tables themselves only after upto. The triggers below keep the
-- summarised hours exact in the writing transaction itself: a change whose hour is before upto
-- (an old booking cancelled, a stay finished, a receipt issued) is added here; a change after it
-- costs nothing. The reports move upto forward (store.Reports.Rollup).
CREATE TABLE report_summary (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    upto INTEGER NOT NULL -- the first hour not summarised, in hours since 1970-01-01 00:00 UTC; 0: none yet
);
INSERT INTO report_summary (id, upto) VALUES (1, 0);
-- Per hour (counted from 1970-01-01 00:00 UTC): the bookings made in it (how many now cancelled, their summed
-- lead in seconds); the finished stays entered in it (their summed length); and, of the
-- finished stays that end at or after they start, how many start and end in it.
CREATE TABLE report_hour (
    hour         INTEGER PRIMARY KEY,
    made         INTEGER NOT NULL DEFAULT 0,
    cancelled    INTEGER NOT NULL DEFAULT 0,
    lead_seconds INTEGER NOT NULL DEFAULT 0,
    finished     INTEGER NOT NULL DEFAULT 0,
    stay_seconds INTEGER NOT NULL DEFAULT 0,
    starts       INTEGER NOT NULL DEFAULT 0,
    ends         INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
-- The sales receipts (replaces IS NULL) issued in each UTC hour, by the reservation's main
-- service and channel.
CREATE TABLE report_revenue (
    hour            INTEGER NOT NULL,
    id_main_service INTEGER NOT NULL,
    channel         TEXT    NOT NULL,
    receipts        INTEGER NOT NULL DEFAULT 0,
    total_cents     INTEGER NOT NULL DEFAULT 0,
    base_cents      INTEGER NOT NULL DEFAULT 0,
    vat_cents       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (hour, id_main_service, channel)
) WITHOUT ROWID;
-- The finished stays a summary cannot spread (no end, or an end before the start): read
-- one by one, normally none.
CREATE INDEX reservation_report_irregular ON reservation (checked_in_at, entry_date, checked_out_at, exit_date)
    WHERE status = 'FINALIZADA' AND (COALESCE(checked_out_at, exit_date) IS NULL
        OR COALESCE(checked_out_at, exit_date) < COALESCE(checked_in_at, entry_date));
CREATE TRIGGER report_reservation_insert AFTER INSERT ON reservation BEGIN
    INSERT INTO report_hour (hour, made, cancelled, lead_seconds, finished, stay_seconds, starts, ends)
    SELECT h, SUM(made), SUM(cancelled), SUM(lead), SUM(finished), SUM(stay), SUM(starts), SUM(ends) FROM (
        SELECT CAST(strftime('%s', NEW.reservation_date) AS INTEGER) / 3600 AS h, 1 AS made, 1 * (CASE WHEN NEW.status = 'CANCELADA' THEN 1 ELSE 0 END) AS cancelled, 1 * (CAST(strftime('%s', NEW.entry_date) AS INTEGER) - CAST(strftime('%s', NEW.reservation_date) AS INTEGER)) AS lead, 0 AS finished, 0 AS stay, 0 AS starts, 0 AS ends
        UNION ALL SELECT CAST(strftime('%s', NEW.entry_date) AS INTEGER) / 3600, 0, 0, 0, 1, 1 * (CAST(strftime('%s', COALESCE(NEW.checked_out_at, NEW.exit_date)) AS INTEGER) - CAST(strftime('%s', COALESCE(NEW.checked_in_at, NEW.entry_date)) AS INTEGER)), 0, 0 WHERE NEW.status = 'FINALIZADA' AND COALESCE(NEW.checked_out_at, NEW.exit_date) IS NOT NULL
        UNION ALL SELECT CAST(strftime('%s', COALESCE(NEW.checked_in_at, NEW.entry_date)) AS INTEGER) / 3600, 0, 0, 0, 0, 0, 1, 0 WHERE NEW.status = 'FINALIZADA' AND COALESCE(NEW.checked_out_at, NEW.exit_date) IS NOT NULL AND COALESCE(NEW.checked_out_at, NEW.exit_date) >= COALESCE(NEW.checked_in_at, NEW.entry_date)
        UNION ALL SELECT CAST(strftime('%s', COALESCE(NEW.checked_out_at, NEW.exit_date)) AS INTEGER) / 3600, 0, 0, 0, 0, 0, 0, 1 WHERE NEW.status = 'FINALIZADA' AND COALESCE(NEW.checked_out_at, NEW.exit_date) IS NOT NULL AND COALESCE(NEW.checked_out_at, NEW.exit_date) >= COALESCE(NEW.checked_in_at, NEW.entry_date)) x
    WHERE h < (SELECT upto FROM report_summary WHERE id = 1) GROUP BY h
    ON CONFLICT (hour) DO UPDATE SET made = report_hour.made + excluded.made, cancelled = report_hour.cancelled + excluded.cancelled,
        lead_seconds = report_hour.lead_seconds + excluded.lead_seconds, finished = report_hour.finished + excluded.finished,
        stay_seconds = report_hour.stay_seconds + excluded.stay_seconds, starts = report_hour.starts + excluded.starts,
        ends = report_hour.ends + excluded.ends;
END;
CREATE TRIGGER report_reservation_update AFTER UPDATE OF reservation_date, entry_date, exit_date, status, checked_in_at, checked_out_at ON reservation BEGIN
    INSERT INTO report_hour (hour, made, cancelled, lead_seconds, finished, stay_seconds, starts, ends)
    SELECT h, SUM(made), SUM(cancelled), SUM(lead), SUM(finished), SUM(stay), SUM(starts), SUM(ends) FROM (
        SELECT CAST(strftime('%s', NEW.reservation_date) AS INTEGER) / 3600 AS h, 1 AS made, 1 * (CASE WHEN NEW.status = 'CANCELADA' THEN 1 ELSE 0 END) AS cancelled, 1 * (CAST(strftime('%s', NEW.entry_date) AS INTEGER) - CAST(strftime('%s', NEW.reservation_date) AS INTEGER)) AS lead, 0 AS finished, 0 AS stay, 0 AS starts, 0 AS ends
        UNION ALL SELECT CAST(strftime('%s', NEW.entry_date) AS INTEGER) / 3600, 0, 0, 0, 1, 1 * (CAST(strftime('%s', COALESCE(NEW.checked_out_at, NEW.exit_date)) AS INTEGER) - CAST(strftime('%s', COALESCE(NEW.checked_in_at, NEW.entry_date)) AS INTEGER)), 0, 0 WHERE NEW.status = 'FINALIZADA' AND COALESCE(NEW.checked_out_at, NEW.exit_date) IS NOT NULL
        UNION ALL SELECT CAST(strftime('%s', COALESCE(NEW.checked_in_at, NEW.entry_date)) AS INTEGER) / 3600, 0, 0, 0, 0, 0, 1, 0 WHERE NEW.status = 'FINALIZADA' AND COALESCE(NEW.checked_out_at, NEW.exit_date) IS NOT NULL AND COALESCE(NEW.checked_out_at, NEW.exit_date) >= COALESCE(NEW.checked_in_at, NEW.entry_date)
        UNION ALL SELECT CAST(strftime('%s', COALESCE(NEW.checked_out_at, NEW.exit_date)) AS INTEGER) / 3600, 0, 0, 0, 0, 0, 0, 1 WHERE NEW.status = 'FINALIZADA' AND COALESCE(NEW.checked_out_at, NEW.exit_date) IS NOT NULL AND COALESCE(NEW.checked_out_at, NEW.exit_date) >= COALESCE(NEW.checked_in_at, NEW.entry_date)
        UNION ALL SELECT CAST(strftime('%s', OLD.reservation_date) AS INTEGER) / 3600 AS h, -1 AS made, -1 * (CASE WHEN OLD.status = 'CANCELADA' THEN 1 ELSE 0 END) AS cancelled, -1 * (CAST(strftime('%s', OLD.entry_date) AS INTEGER) - CAST(strftime('%s', OLD.reservation_date) AS INTEGER)) AS lead, 0 AS finished, 0 AS stay, 0 AS starts, 0 AS ends
        UNION ALL SELECT CAST(strftime('%s', OLD.entry_date) AS INTEGER) / 3600, 0, 0, 0, -1, -1 * (CAST(strftime('%s', COALESCE(OLD.checked_out_at, OLD.exit_date)) AS INTEGER) - CAST(strftime('%s', COALESCE(OLD.checked_in_at, OLD.entry_date)) AS INTEGER)), 0, 0 WHERE OLD.status = 'FINALIZADA' AND COALESCE(OLD.checked_out_at, OLD.exit_date) IS NOT NULL
        UNION ALL SELECT CAST(strftime('%s', COALESCE(OLD.checked_in_at, OLD.entry_date)) AS INTEGER) / 3600, 0, 0, 0, 0, 0, -1, 0 WHERE OLD.status = 'FINALIZADA' AND COALESCE(OLD.checked_out_at, OLD.exit_date) IS NOT NULL AND COALESCE(OLD.checked_out_at, OLD.exit_date) >= COALESCE(OLD.checked_in_at, OLD.entry_date)
        UNION ALL SELECT CAST(strftime('%s', COALESCE(OLD.checked_out_at, OLD.exit_date)) AS INTEGER) / 3600, 0, 0, 0, 0, 0, 0, -1 WHERE OLD.status = 'FINALIZADA' AND COALESCE(OLD.checked_out_at, OLD.exit_date) IS NOT NULL AND COALESCE(OLD.checked_out_at, OLD.exit_date) >= COALESCE(OLD.checked_in_at, OLD.entry_date)) x
    WHERE h < (SELECT upto FROM report_summary WHERE id = 1) GROUP BY h
    ON CONFLICT (hour) DO UPDATE SET made = report_hour.made + excluded.made, cancelled = report_hour.cancelled + excluded.cancelled,
        lead_seconds = report_hour.lead_seconds + excluded.lead_seconds, finished = report_hour.finished + excluded.finished,
        stay_seconds = report_hour.stay_seconds + excluded.stay_seconds, starts = report_hour.starts + excluded.starts,
        ends = report_hour.ends + excluded.ends;
END;
CREATE TRIGGER report_reservation_delete AFTER DELETE ON reservation BEGIN
    INSERT INTO report_hour (hour, made, cancelled, lead_seconds, finished, stay_seconds, starts, ends)
    SELECT h, SUM(made), SUM(cancelled), SUM(lead), SUM(finished), SUM(stay), SUM(starts), SUM(ends) FROM (
        SELECT CAST(strftime('%s', OLD.reservation_date) AS INTEGER) / 3600 AS h, -1 AS made, -1 * (CASE WHEN OLD.status = 'CANCELADA' THEN 1 ELSE 0 END) AS cancelled, -1 * (CAST(strftime('%s', OLD.entry_date) AS INTEGER) - CAST(strftime('%s', OLD.reservation_date) AS INTEGER)) AS lead, 0 AS finished, 0 AS stay, 0 AS starts, 0 AS ends
        UNION ALL SELECT CAST(strftime('%s', OLD.entry_date) AS INTEGER) / 3600, 0, 0, 0, -1, -1 * (CAST(strftime('%s', COALESCE(OLD.checked_out_at, OLD.exit_date)) AS INTEGER) - CAST(strftime('%s', COALESCE(OLD.checked_in_at, OLD.entry_date)) AS INTEGER)), 0, 0 WHERE OLD.status = 'FINALIZADA' AND COALESCE(OLD.checked_out_at, OLD.exit_date) IS NOT NULL
        UNION ALL SELECT CAST(strftime('%s', COALESCE(OLD.checked_in_at, OLD.entry_date)) AS INTEGER) / 3600, 0, 0, 0, 0, 0, -1, 0 WHERE OLD.status = 'FINALIZADA' AND COALESCE(OLD.checked_out_at, OLD.exit_date) IS NOT NULL AND COALESCE(OLD.checked_out_at, OLD.exit_date) >= COALESCE(OLD.checked_in_at, OLD.entry_date)
        UNION ALL SELECT CAST(strftime('%s', COALESCE(OLD.checked_out_at, OLD.exit_date)) AS INTEGER) / 3600, 0, 0, 0, 0, 0, 0, -1 WHERE OLD.status = 'FINALIZADA' AND COALESCE(OLD.checked_out_at, OLD.exit_date) IS NOT NULL AND COALESCE(OLD.checked_out_at, OLD.exit_date) >= COALESCE(OLD.checked_in_at, OLD.entry_date)) x
    WHERE h < (SELECT upto FROM report_summary WHERE id = 1) GROUP BY h
    ON CONFLICT (hour) DO UPDATE SET made = report_hour.made + excluded.made, cancelled = report_hour.cancelled + excluded.cancelled,
        lead_seconds = report_hour.lead_seconds + excluded.lead_seconds, finished = report_hour.finished + excluded.finished,
        stay_seconds = report_hour.stay_seconds + excluded.stay_seconds, starts = report_hour.starts + excluded.starts,
        ends = report_hour.ends + excluded.ends;
END;
-- A reservation's receipts move with its main service and channel.
CREATE TRIGGER report_reservation_sale AFTER UPDATE OF id_main_service, channel ON reservation
    WHEN OLD.id_main_service <> NEW.id_main_service OR OLD.channel <> NEW.channel BEGIN
    INSERT INTO report_revenue (hour, id_main_service, channel, receipts, total_cents, base_cents, vat_cents)
    SELECT h, svc, ch, SUM(n), SUM(t), SUM(b), SUM(v) FROM (
        SELECT CAST(strftime('%s', rc.issued_at) AS INTEGER) / 3600 AS h, OLD.id_main_service AS svc, OLD.channel AS ch, -1 AS n, -1 * rc.total_cents AS t, -1 * rc.base_cents AS b, -1 * rc.vat_cents AS v
            FROM receipt rc WHERE rc.id_reservation = NEW.id_reservation AND rc.replaces IS NULL
        UNION ALL SELECT CAST(strftime('%s', rc.issued_at) AS INTEGER) / 3600 AS h, NEW.id_main_service AS svc, NEW.channel AS ch, 1 AS n, 1 * rc.total_cents AS t, 1 * rc.base_cents AS b, 1 * rc.vat_cents AS v
            FROM receipt rc WHERE rc.id_reservation = NEW.id_reservation AND rc.replaces IS NULL) x
    WHERE h < (SELECT upto FROM report_summary WHERE id = 1) GROUP BY h, svc, ch
    ON CONFLICT (hour, id_main_service, channel) DO UPDATE SET receipts = report_revenue.receipts + excluded.receipts, total_cents = report_revenue.total_cents + excluded.total_cents,
        base_cents = report_revenue.base_cents + excluded.base_cents, vat_cents = report_revenue.vat_cents + excluded.vat_cents;
END;
CREATE TRIGGER report_receipt_insert AFTER INSERT ON receipt WHEN NEW.replaces IS NULL BEGIN
    INSERT INTO report_revenue (hour, id_main_service, channel, receipts, total_cents, base_cents, vat_cents)
    SELECT CAST(strftime('%s', NEW.issued_at) AS INTEGER) / 3600, res.id_main_service, res.channel, 1, NEW.total_cents, NEW.base_cents, NEW.vat_cents
    FROM reservation res WHERE res.id_reservation = NEW.id_reservation AND CAST(strftime('%s', NEW.issued_at) AS INTEGER) / 3600 < (SELECT upto FROM report_summary WHERE id = 1)
    ON CONFLICT (hour, id_main_service, channel) DO UPDATE SET receipts = report_revenue.receipts + excluded.receipts, total_cents = report_revenue.total_cents + excluded.total_cents,
        base_cents = report_revenue.base_cents + excluded.base_cents, vat_cents = report_revenue.vat_cents + excluded.vat_cents;
END;
