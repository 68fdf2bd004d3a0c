#!/bin/sh
# Measures the administrators' history search on a 1,000,000-reservation database,
# on SQLite and on PostgreSQL (README: Administrator operations, performance).
#
#   scripts/bench-history.sh                 # both databases
#   BENCH_DIALECTS=sqlite scripts/bench-history.sh
#
# Each database is generated once with `parking generate` and reused (delete it to
# start again): SQLite in $BENCH_DIR (default /var/tmp/parking-bench, outside the
# repository), PostgreSQL in the database named by $BENCH_PG_DB on the server of
# $PARKING_TEST_POSTGRES_URL. Extra arguments go to bench/histbench (e.g. -explain,
# -http, -queries 1000).
set -eu
cd "$(dirname "$0")/.."
BENCH_DIR=${BENCH_DIR:-/var/tmp/parking-bench}
BENCH_PG_DB=${BENCH_PG_DB:-parking_bench}
BENCH_DIALECTS=${BENCH_DIALECTS:-sqlite postgres}
PG_ADMIN_URL=${PARKING_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}

mkdir -p "$BENCH_DIR"
go build -o "$BENCH_DIR/parking" ./cmd/parking
go build -o "$BENCH_DIR/histbench" ./bench/histbench

for d in $BENCH_DIALECTS; do
	case $d in
	sqlite)
		url="sqlite:$BENCH_DIR/bench.db"
		if [ ! -f "$BENCH_DIR/bench.db" ]; then
			echo "generating $url (a few minutes)…"
			"$BENCH_DIR/parking" generate --database-url "$url"
		fi
		;;
	postgres)
		url=$(printf '%s' "$PG_ADMIN_URL" | sed "s#/[^/?]*\([?]\|\$\)#/$BENCH_PG_DB\1#")
		if ! psql "$PG_ADMIN_URL" -tAc "SELECT 1 FROM pg_database WHERE datname = '$BENCH_PG_DB'" | grep -q 1; then
			psql "$PG_ADMIN_URL" -c "CREATE DATABASE $BENCH_PG_DB"
			echo "generating $BENCH_PG_DB (several minutes)…"
			"$BENCH_DIR/parking" generate --database-url "$url"
			# The generator writes everything in one transaction, so every tally update
			# of customer_search/vehicle_search leaves a dead row version that HOT
			# pruning cannot reclaim until it commits (the tables end 3× their size). A
			# live service commits each booking on its own and stays compact (fillfactor
			# 80, HOT updates); VACUUM FULL gives that steady state. Then what
			# autovacuum would do after a bulk load.
			psql "$url" -c "VACUUM FULL customer_search" -c "VACUUM FULL vehicle_search" -c "VACUUM FULL reservation_tally"
			psql "$url" -c "VACUUM ANALYZE"
		fi
		;;
	*)
		echo "unknown dialect $d" >&2
		exit 2
		;;
	esac
	"$BENCH_DIR/histbench" -database-url "$url" "$@"
	echo
done
