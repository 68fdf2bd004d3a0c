-- Password reset requests, SQLite dialect (the PostgreSQL file explains): the table
-- is rebuilt, as SQLite cannot drop a NOT NULL.
CREATE TABLE password_reset_new (
    token_hash  TEXT     PRIMARY KEY,
    id_customer INTEGER  REFERENCES customer (id_customer) ON DELETE CASCADE,
    created_at  DATETIME NOT NULL,
    expires_at  DATETIME NOT NULL,
    used_at     DATETIME,
    email_hash  TEXT
);
INSERT INTO password_reset_new (token_hash, id_customer, created_at, expires_at, used_at)
    SELECT token_hash, id_customer, created_at, expires_at, used_at FROM password_reset;
DROP TABLE password_reset;
ALTER TABLE password_reset_new RENAME TO password_reset;
CREATE INDEX password_reset_customer ON password_reset (id_customer);
CREATE INDEX password_reset_email ON password_reset (email_hash, created_at);
