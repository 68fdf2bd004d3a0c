-- History search ignores accents as well as case (docs/admin.md#history), SQLite
-- dialect: "garcia" finds "García". The customers' name index (0003, fed by the
-- queue of 0005) is rebuilt with the trigram tokenizer's remove_diacritics option,
-- which folds the indexed names and the searched phrase alike; the row test of the
-- page query folds the same way (parking_folds, internal/store/foldcontains.go).
DROP TABLE customer_name_fts;
CREATE VIRTUAL TABLE customer_name_fts USING fts5(
    full_name, content='customer', content_rowid='id_customer', tokenize='trigram remove_diacritics 1');
INSERT INTO customer_name_fts (customer_name_fts) VALUES ('rebuild');
