-- The PostgreSQL dialect adds refuse_unless and occupancy_claim_final, so that the public
-- booking's refusals are raised inside the database and its COMMIT can share the round
-- trip of its last writes. SQLite runs its statements in the process, one at a time, and
-- judges them in internal/store: this migration changes nothing.
SELECT 1;
