-- The public booking's COMMIT goes out in the round trip of its last writes
-- (docs/performance.md#the-public-booking-in-two-round-trips). Every refusal the service
-- judged after reading that round trip's answers is raised inside the database instead:
-- the transaction aborts, and the COMMIT sent with it commits nothing.

-- refuse_unless raises SQLSTATE code with message unless ok. A write that must change its
-- row ends with it: WITH w AS (INSERT … RETURNING 1) SELECT refuse_unless(EXISTS (SELECT 1 FROM w), …).
CREATE FUNCTION refuse_unless(ok boolean, code text, message text) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    IF ok THEN
        RETURN true;
    END IF;
    RAISE EXCEPTION USING ERRCODE = code, MESSAGE = message;
END
$$;

-- occupancy_claim_final is a new stay's claim on the striped ledger, decided inside the
-- database on both paths (internal/store/occupancy.go explains them): the fast attempt
-- of occupancy_claim, and when it cannot decide, the exact path (every stripe row of the
-- stay's days created, all of them locked in (day, stripe) order, the stay's stripe
-- incremented, each checked day summed). A checked day over the limit raises SQLSTATE
-- PK001 with the days over it, comma-separated, as its detail: the claim is refused and
-- the transaction fails. The limit is p_limit, or the facility's sellable places when it
-- is NULL (as in occupancy_claim).
CREATE FUNCTION occupancy_claim_final(p_first integer, p_last integer, p_stripe integer,
    p_check_first integer, p_check_last integer, p_stripes integer, p_limit integer) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_claimed boolean;
    v_capacity integer;
    v_sellable integer;
    v_limit integer := p_limit;
    v_over integer[];
BEGIN
    SELECT c.claimed, c.f_capacity, c.f_sellable INTO v_claimed, v_capacity, v_sellable
        FROM occupancy_claim(p_first, p_last, p_stripe, p_check_first, p_check_last, p_stripes - 1, p_limit) c;
    IF v_claimed THEN
        RETURN true;
    END IF;
    IF v_limit IS NULL THEN
        v_limit := CASE WHEN v_sellable > 0 THEN v_sellable ELSE v_capacity END;
    END IF;
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
