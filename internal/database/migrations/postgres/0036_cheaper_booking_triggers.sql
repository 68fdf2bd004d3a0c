-- Cheaper triggers and claim for the public booking on PostgreSQL, each with exactly the
-- outcome it had (docs/performance.md#cheaper-booking-triggers):
--
-- * report_reservation_change: a new booking that is not finished counts only in the hour
--   it was made, which is never before upto for a booking made now; such an insert no
--   longer builds the hour rows that the WHERE h < upto would throw away.
-- * reservation_tally_insert: a one-row INSERT (every booking) updates the three tallies
--   by key; a bulk load keeps the grouped updates of 0003_admin.
-- * occupancy_claim_final: the fast attempt of occupancy_claim inline, instead of a call
--   through a table function.

CREATE OR REPLACE FUNCTION report_reservation_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    w bigint := report_upto();
BEGIN
    IF TG_OP = 'INSERT' THEN
        -- A booking that is not finished counts only in the hour it was made.
        IF NEW.status <> 'FINALIZADA' AND CAST(FLOOR(EXTRACT(EPOCH FROM NEW.reservation_date) / 3600) AS BIGINT) >= w THEN
            RETURN NULL;
        END IF;
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

CREATE OR REPLACE FUNCTION reservation_tally_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_rows bigint;
    v_customer bigint;
    v_vehicle bigint;
    v_status text;
    v_id bigint;
BEGIN
    SELECT count(*), min(id_customer), min(id_vehicle), min(status), min(id_reservation)
        INTO v_rows, v_customer, v_vehicle, v_status, v_id FROM new_rows;
    IF v_rows = 1 THEN
        UPDATE customer_search SET
            tally_pendiente  = tally_pendiente  + CAST(v_status = 'PENDIENTE' AS integer),
            tally_en_curso   = tally_en_curso   + CAST(v_status = 'EN CURSO' AS integer),
            tally_finalizada = tally_finalizada + CAST(v_status = 'FINALIZADA' AS integer),
            tally_cancelada  = tally_cancelada  + CAST(v_status = 'CANCELADA' AS integer)
        WHERE id_customer = v_customer;
        UPDATE vehicle_search SET
            tally_pendiente  = tally_pendiente  + CAST(v_status = 'PENDIENTE' AS integer),
            tally_en_curso   = tally_en_curso   + CAST(v_status = 'EN CURSO' AS integer),
            tally_finalizada = tally_finalizada + CAST(v_status = 'FINALIZADA' AS integer),
            tally_cancelada  = tally_cancelada  + CAST(v_status = 'CANCELADA' AS integer)
        WHERE id_vehicle = v_vehicle;
        UPDATE reservation_tally SET n = n + 1 WHERE status = v_status AND shard = CAST(v_id % 16 AS smallint);
        RETURN NULL;
    END IF;
    UPDATE customer_search t SET
        tally_pendiente  = t.tally_pendiente  + d.p,
        tally_en_curso   = t.tally_en_curso   + d.e,
        tally_finalizada = t.tally_finalizada + d.f,
        tally_cancelada  = t.tally_cancelada  + d.x
    FROM (SELECT id_customer, count(*) FILTER (WHERE status = 'PENDIENTE') AS p, count(*) FILTER (WHERE status = 'EN CURSO') AS e,
                 count(*) FILTER (WHERE status = 'FINALIZADA') AS f, count(*) FILTER (WHERE status = 'CANCELADA') AS x
          FROM new_rows GROUP BY id_customer) d
    WHERE t.id_customer = d.id_customer;
    UPDATE vehicle_search t SET
        tally_pendiente  = t.tally_pendiente  + d.p,
        tally_en_curso   = t.tally_en_curso   + d.e,
        tally_finalizada = t.tally_finalizada + d.f,
        tally_cancelada  = t.tally_cancelada  + d.x
    FROM (SELECT id_vehicle, count(*) FILTER (WHERE status = 'PENDIENTE') AS p, count(*) FILTER (WHERE status = 'EN CURSO') AS e,
                 count(*) FILTER (WHERE status = 'FINALIZADA') AS f, count(*) FILTER (WHERE status = 'CANCELADA') AS x
          FROM new_rows GROUP BY id_vehicle) d
    WHERE t.id_vehicle = d.id_vehicle;
    UPDATE reservation_tally t SET n = t.n + d.n
    FROM (SELECT status, (id_reservation % 16)::smallint AS shard, count(*) AS n FROM new_rows GROUP BY 1, 2) d
    WHERE t.status = d.status AND t.shard = d.shard;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION occupancy_claim_final(p_first integer, p_last integer, p_stripe integer,
    p_check_first integer, p_check_last integer, p_stripes integer, p_limit integer) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_capacity integer;
    v_sellable integer;
    v_limit integer := p_limit;
    v_rows integer;
    v_over integer[];
BEGIN
    IF v_limit IS NULL THEN
        SELECT s.capacity, s.sellable INTO v_capacity, v_sellable FROM facility_settings s WHERE s.id = 1;
        v_limit := CASE WHEN coalesce(v_sellable, 0) > 0 THEN v_sellable ELSE coalesce(v_capacity, 0) END;
    END IF;
    -- The fast attempt, as occupancy_claim with a margin of the other stripes.
    BEGIN
        UPDATE occupancy o SET booked = o.booked + 1
            FROM (SELECT day, stripe FROM occupancy
                  WHERE day BETWEEN p_first AND p_last AND stripe = p_stripe
                  ORDER BY day FOR UPDATE) l
            WHERE o.day = l.day AND o.stripe = l.stripe;
        GET DIAGNOSTICS v_rows = ROW_COUNT;
        IF v_rows = p_last - p_first + 1 AND (v_limit <= 0 OR p_check_first > p_check_last OR NOT EXISTS (
                SELECT 1 FROM occupancy WHERE day BETWEEN p_check_first AND p_check_last
                GROUP BY day HAVING SUM(booked) + p_stripes - 1 > v_limit)) THEN
            RETURN true;
        END IF;
        RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'occupancy_claim_final: exact path';
    EXCEPTION WHEN raise_exception THEN
        NULL;
    END;
    -- The exact path.
    INSERT INTO occupancy (day, stripe, booked)
        SELECT d, s, 0 FROM generate_series(p_first, p_last) d, generate_series(0, p_stripes - 1) s
        ORDER BY d, s ON CONFLICT (day, stripe) DO NOTHING;
    PERFORM count(*) FROM (SELECT 1 FROM occupancy WHERE day BETWEEN p_first AND p_last
        ORDER BY day, stripe FOR UPDATE) l;
    UPDATE occupancy SET booked = booked + 1 WHERE day BETWEEN p_first AND p_last AND stripe = p_stripe;
    IF v_limit <= 0 OR p_check_first > p_check_last THEN
        RETURN true;
    END IF;
    SELECT array_agg(day ORDER BY day) INTO v_over FROM (
        SELECT day FROM occupancy WHERE day BETWEEN p_check_first AND p_check_last
        GROUP BY day HAVING SUM(booked) > v_limit) o;
    IF v_over IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'PK001', MESSAGE = 'occupancy over the limit',
            DETAIL = array_to_string(v_over, ',');
    END IF;
    RETURN true;
END
$$;

-- reservation_in_course_exit (0019) repeated reservation_in_car (0011) column for column and
-- condition for condition: one index less for every write of a reservation.
DROP INDEX reservation_in_course_exit;
