-- reservation_in_course_exit (0019) repeated reservation_in_car (0011) column for column and
-- condition for condition: one index less for every write of a reservation. (The PostgreSQL
-- dialect also narrows the reports' insert trigger; SQLite's runs in the process, where the
-- rows it builds cost about 1 % of a booking: docs/performance.md#cheaper-booking-triggers.)
DROP INDEX reservation_in_course_exit;
