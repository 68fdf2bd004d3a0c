-- Password reset requests, PostgreSQL dialect. A request writes one password_reset
-- row whether or not the email belongs to an account that gets a link: a request
-- that sends nothing leaves a row without a customer, which no link can use.
-- email_hash (hex SHA-256 of the lower-cased email) counts the requests per address
-- for the limit of three an hour.
ALTER TABLE password_reset ALTER COLUMN id_customer DROP NOT NULL;
ALTER TABLE password_reset ADD COLUMN email_hash TEXT;
CREATE INDEX password_reset_email ON password_reset (email_hash, created_at);
