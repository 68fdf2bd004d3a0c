-- The language of the customer's notifications and pages (docs/languages.md):
-- an account's chosen language (NULL: not chosen; the page's language then comes
-- from the cookie or Accept-Language), and each reservation's language, which its
-- notifications carry as `idioma`. Reservations made before this get Spanish.
ALTER TABLE customer ADD COLUMN language TEXT;
ALTER TABLE reservation ADD COLUMN language TEXT NOT NULL DEFAULT 'es';
