-- Capacity (docs/capacity.md#what-counts): the fast path of a new stay's claim on the striped ledger
-- in one round trip (internal/store/occupancy.go explains the paths and why they are
-- exact). It increments the stay's rows of one stripe (locked in day order), then
-- reads each checked day's sum in a new statement: a VOLATILE function takes a fresh
-- snapshot for every statement, so the sum sees every commit made before the stripe
-- rows were locked, as the separate statement of the client-side path did. When a
-- row is missing or a checked day's sum plus p_margin is over the limit, the
-- increment is rolled back (the exception block is a subtransaction: its row locks
-- go with it) and claimed is false: the caller takes the exact path.
--
-- The limit is p_limit, or, when p_limit is NULL, the facility's sellable places read
-- here (settings.Facility.SellableLimit: sellable when set, else the capacity; 0 is
-- unlimited); capacity and sellable are returned so that the exact path does not
-- read them again.
CREATE FUNCTION occupancy_claim(p_first integer, p_last integer, p_stripe integer,
    p_check_first integer, p_check_last integer, p_margin integer, p_limit integer,
    OUT claimed boolean, OUT f_capacity integer, OUT f_sellable integer)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_limit integer := p_limit;
    v_rows integer;
BEGIN
    IF v_limit IS NULL THEN
        SELECT s.capacity, s.sellable INTO f_capacity, f_sellable FROM facility_settings s WHERE s.id = 1;
        f_capacity := coalesce(f_capacity, 0);
        f_sellable := coalesce(f_sellable, 0);
        v_limit := CASE WHEN f_sellable > 0 THEN f_sellable ELSE f_capacity END;
    END IF;
    BEGIN
        UPDATE occupancy o SET booked = o.booked + 1
            FROM (SELECT day, stripe FROM occupancy
                  WHERE day BETWEEN p_first AND p_last AND stripe = p_stripe
                  ORDER BY day FOR UPDATE) l
            WHERE o.day = l.day AND o.stripe = l.stripe;
        GET DIAGNOSTICS v_rows = ROW_COUNT;
        IF v_rows = p_last - p_first + 1 AND (v_limit <= 0 OR p_check_first > p_check_last OR NOT EXISTS (
                SELECT 1 FROM occupancy WHERE day BETWEEN p_check_first AND p_check_last
                GROUP BY day HAVING SUM(booked) + p_margin > v_limit)) THEN
            claimed := true;
            RETURN;
        END IF;
        RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'occupancy_claim: exact path';
    EXCEPTION WHEN raise_exception THEN
        claimed := false;
    END;
END
$$;
