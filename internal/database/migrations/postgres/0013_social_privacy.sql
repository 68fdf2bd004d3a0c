-- Social login (OpenID Connect) and privacy rights, PostgreSQL dialect.

-- One row per identity of an OpenID provider linked to an account: the provider's
-- subject is the identity (an email claim is not), so (provider, subject) is unique
-- and names exactly one customer.
CREATE TABLE social_identity (
    provider    TEXT     NOT NULL CHECK (length(provider) BETWEEN 1 AND 40),
    subject     TEXT     NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
    id_customer BIGINT   NOT NULL REFERENCES customer (id_customer) ON DELETE CASCADE,
    email       TEXT     CHECK (email IS NULL OR length(email) <= 254),
    created_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (provider, subject)
);
CREATE INDEX social_identity_customer ON social_identity (id_customer);

-- A login in progress with a provider: the state (stored as its SHA-256), the
-- nonce the ID token must carry and the PKCE verifier. Kept in the database so that
-- the callback may reach any instance; used once (deleted when read) and refused
-- after expires_at.
CREATE TABLE oidc_state (
    state_hash TEXT     PRIMARY KEY,
    provider   TEXT     NOT NULL,
    nonce      TEXT     NOT NULL,
    verifier   TEXT     NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX oidc_state_expires ON oidc_state (expires_at);

-- A provider identity whose verified email belongs to an existing account with a
-- password: it is linked only after the person signs in once with that password.
CREATE TABLE social_pending_link (
    token_hash  TEXT     PRIMARY KEY,
    provider    TEXT     NOT NULL,
    subject     TEXT     NOT NULL,
    email       TEXT     NOT NULL,
    id_customer BIGINT   NOT NULL REFERENCES customer (id_customer) ON DELETE CASCADE,
    created_at  TIMESTAMPTZ NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX social_pending_link_expires ON social_pending_link (expires_at);

-- Privacy (docs/manage-booking.md): the acknowledgement of the privacy notice and the
-- optional marketing consent, each with the time it was given (NULL: not given).
-- erased_at marks an account whose personal data was erased on request.
ALTER TABLE customer ADD COLUMN privacy_ack_at TIMESTAMPTZ;
ALTER TABLE customer ADD COLUMN marketing_consent_at TIMESTAMPTZ;
ALTER TABLE customer ADD COLUMN erased_at TIMESTAMPTZ;
ALTER TABLE reservation ADD COLUMN privacy_ack_at TIMESTAMPTZ;
ALTER TABLE reservation ADD COLUMN marketing_consent_at TIMESTAMPTZ;
