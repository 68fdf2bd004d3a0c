-- Accounts (issue 3): login throttling and API token housekeeping, SQLite dialect.

-- One row per failed login attempt, for each throttling key (the account's email
-- and the client's address). key_hash is the SHA-256 of the key, so the table holds
-- no email addresses or IP addresses in clear. Rows older than the throttling
-- window are deleted as new failures arrive; a successful login deletes the
-- account's rows.
CREATE TABLE login_failure (
    key_hash  TEXT        NOT NULL,
    failed_at DATETIME    NOT NULL
);
CREATE INDEX login_failure_key ON login_failure (key_hash, failed_at);
CREATE INDEX login_failure_at ON login_failure (failed_at);

-- Expired tokens are pruned by expiry.
CREATE INDEX api_token_expires ON api_token (expires_at);
