-- pgbench script for bench/compare.sh's pgbench scenario: one transaction of ten
-- statements (eight inserts, two updates) on scratch tables, the ceiling a booking's
-- transaction (BEGIN, its statements, COMMIT) is measured against on the same machine.
\set n random(1, 1000000000)
\set a random(1, 100000)
\set b random(1, 100000)
BEGIN;
INSERT INTO pb_customer (full_name, phone) VALUES ('Cliente', :n);
INSERT INTO pb_vehicle (plate, kind) VALUES ('B' || :n, 'TURISMO');
INSERT INTO pb_link (customer, vehicle) VALUES (:n, :n);
INSERT INTO pb_reservation (customer, vehicle, total, note) VALUES (:n, :n, 4200, 'pgbench');
INSERT INTO pb_extra (reservation, extra, price) VALUES (:n, 1, 500);
INSERT INTO pb_notification (reservation, kind, payload) VALUES (:n, 'booking_confirmation', '{"type":"booking_confirmation"}');
INSERT INTO pb_notification (reservation, kind, payload) VALUES (:n, 'booking_reminder', '{"type":"booking_reminder"}');
INSERT INTO pb_audit (entity, action, changes) VALUES (:n, 'create', '{"status":"PENDIENTE"}');
UPDATE pb_account SET used = used + 1 WHERE id = :a;
UPDATE pb_account SET used = used - 1 WHERE id = :b;
END;
