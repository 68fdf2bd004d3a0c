# Helpers the bench scripts share (sourced, not run).

# free_port prints a free loopback port.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# wait_ready PORT waits up to 30 s for the server on PORT to answer /readyz.
wait_ready() {
  for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$1/readyz" >/dev/null && return 0; sleep 0.1; done
  echo "server on port $1 did not start" >&2; return 1
}

# pgbench_prepare PG DB: DB (dropped and created on the server PG) with the scratch tables
# of bench/pgbench-ten.sql.
pgbench_prepare() {
  psql "$1/postgres" -qc "DROP DATABASE IF EXISTS $2 WITH (FORCE)" -c "CREATE DATABASE $2" >/dev/null
  psql "$1/$2" -q >/dev/null <<'SQL'
CREATE TABLE pb_customer (id bigserial PRIMARY KEY, full_name text NOT NULL, phone bigint NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE pb_vehicle (id bigserial PRIMARY KEY, plate text NOT NULL, kind text NOT NULL);
CREATE TABLE pb_link (customer bigint NOT NULL, vehicle bigint NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE pb_reservation (id bigserial PRIMARY KEY, customer bigint NOT NULL, vehicle bigint NOT NULL, total bigint NOT NULL, note text, created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE pb_extra (reservation bigint NOT NULL, extra bigint NOT NULL, price bigint NOT NULL);
CREATE TABLE pb_notification (id bigserial PRIMARY KEY, reservation bigint NOT NULL, kind text NOT NULL, payload text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE pb_audit (id bigserial PRIMARY KEY, entity bigint NOT NULL, action text NOT NULL, changes text NOT NULL, at timestamptz NOT NULL DEFAULT now());
CREATE TABLE pb_account (id bigint PRIMARY KEY, used bigint NOT NULL DEFAULT 0);
INSERT INTO pb_account (id) SELECT generate_series(1, 100000);
SQL
}

# run_pgbench PG DB DURATION: bench/pgbench-ten.sql from 50 clients (2 threads, prepared
# protocol) for DURATION (5s, say); prints its transactions per second.
run_pgbench() {
  local out tps
  out=$(pgbench -n -c 50 -j 2 -M prepared -T "${3%s}" -f bench/pgbench-ten.sql "$1/$2" 2>&1)
  tps=$(awk '/^tps = / {print $3; exit}' <<<"$out")
  [ -n "$tps" ] || { echo "$out" >&2; echo "pgbench gave no figure" >&2; return 1; }
  echo "$tps"
}
