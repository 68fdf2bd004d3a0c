#!/usr/bin/env bash
# Measures the public API under load on both databases with wrk (Debian package):
# POST /api/pricing/dynamic and the public booking, 2 threads, 50 connections.
#   bench/run.sh                 # both databases, 10 s per scenario
#   DURATION=30s bench/run.sh    # longer runs
#   DBS=sqlite bench/run.sh      # one database
#   DBS="sqlite sqlite-normal sqlite sqlite-normal" SCENARIOS=booking bench/run.sh
#                                # SQLite durability settings, alternated
#   CAPACITY=1000000 bench/run.sh
#                                # capacity on: every booking checks its days against
#                                # the limit (never reached here); default 0, unlimited
# "sqlite" is the default PARKING_SQLITE_SYNC=FULL, "sqlite-normal" is NORMAL.
# PostgreSQL runs with full durability (synchronous_commit on, the default). Each
# run prints the load average just before it: the figures mean little without it.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10s}
DBS=${DBS:-"sqlite sqlite-normal postgres"}
SCENARIOS=${SCENARIOS:-"pricing booking"}
PG=${PG:-postgres://postgres@127.0.0.1:5432}
PORT=${PORT:-18090}
CAPACITY=${CAPACITY:-0}
# A scratch database of its own, dropped and created on each run: never a shared
# data set's name (parking_bench holds a 1M-reservation data set other scripts use).
PGDB=${PGDB:-parking_wrk}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/parking" ./cmd/parking

for db in $DBS; do
  sync=FULL
  case $db in
    sqlite) rm -f "$work"/bench.db*; url="sqlite:$work/bench.db" ;;
    sqlite-normal) rm -f "$work"/bench.db*; url="sqlite:$work/bench.db"; sync=NORMAL ;;
    postgres)
      psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $PGDB WITH (FORCE)" -c "CREATE DATABASE $PGDB"
      psql "$PG/$PGDB" -qAtc "SHOW synchronous_commit" | sed 's/^/synchronous_commit = /'
      url="$PG/$PGDB?sslmode=disable" ;;
  esac
  PARKING_CAPACITY=$CAPACITY PARKING_PUBLIC_RATE=0 PARKING_LOG_LEVEL=warn PARKING_SQLITE_SYNC=$sync PARKING_DATABASE_URL="$url" PARKING_ADDR="127.0.0.1:$PORT" "$work/parking" serve &
  pid=$!
  for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.1; done
  for scenario in $SCENARIOS; do
    echo "== $db: $scenario, capacity $CAPACITY, 50 connections, $DURATION, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    wrk -t2 -c50 -d"$DURATION" --latency -s "bench/$scenario.lua" "http://127.0.0.1:$PORT/api/pricing/dynamic" |
      grep -E "Requests/sec|Latency |50%|90%|99%|Non-2xx|Socket errors"
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true
done
