-- Capacity: the PostgreSQL dialect adds occupancy_claim, the one-round-trip fast path
-- of its striped ledger. SQLite has one ledger row per day and one writer: its claim
-- stays in internal/store/occupancy.go, and this migration changes nothing.
SELECT 1;
