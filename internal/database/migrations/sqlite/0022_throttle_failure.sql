-- Failed attempts of every throttle (logins, the booking lookup and the claim), not
-- only logins: the table is named for what it holds. Each throttle hashes its keys
-- with a prefix of its own, so their counts never mix.
ALTER TABLE login_failure RENAME TO throttle_failure;
