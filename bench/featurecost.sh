#!/usr/bin/env bash
# What each feature costs the public booking (docs/performance.md#what-the-booking-pays-for).
# The work tree's build books under wrk (2 threads, 50 connections, bench/booking.lua) on a
# scratch database, once as it is ("landed") and once per variant with one feature's work
# taken out: of the scratch database after its migrations (triggers dropped or disabled,
# indexes dropped), of the requests (no Idempotency-Key) or of the configuration (no
# capacity). A variant is a measurement, never a way to run the service: without its
# triggers the reports, the board and the staff search would be wrong. The variants run
# alternated, ROUNDS times, each on a fresh database; the summary prints each one's median
# and its ratio to "landed".
#
#   bench/featurecost.sh                          # SQLite, every variant, 3 rounds of 5 s
#   DB=postgres bench/featurecost.sh              # PostgreSQL; pgbench-ten.sql in the alternation
#   SQLITE_SYNC=NORMAL VARIANTS="landed no-key" ROUNDS=5 bench/featurecost.sh
#
# Variants (VARIANTS, default all):
#   landed         the build as it is, capacity CAPACITY (default 100000, never reached)
#   no-key         requests without an Idempotency-Key
#   no-capacity    PARKING_CAPACITY=0: no ledger claim
#   no-reports     the reports' insert trigger and the reservation_report_created and
#                  reservation_report_pending indexes
#   no-board       the board's version trigger and its two covering indexes
#   no-search      the staff search's triggers on customer and vehicle (and
#                  customer_name_lower)
#   no-tallies     the status tallies' insert trigger
#   no-history     the history's indexes reservation_created, reservation_status_created
#                  and reservation_channel
#   no-derived     every one of the five above at once
#   pgbench        PostgreSQL only: bench/pgbench-ten.sql from 50 clients, as in bench/compare.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DB=${DB:-sqlite}
DURATION=${DURATION:-5s}
ROUNDS=${ROUNDS:-3}
CAPACITY=${CAPACITY:-100000}
SQLITE_SYNC=${SQLITE_SYNC:-FULL}
PG=${PG:-postgres://postgres@127.0.0.1:5432}
PGDB=${PGDB:-parking_featurecost}
VARIANTS=${VARIANTS:-"landed no-key no-capacity no-reports no-board no-search no-tallies no-history no-derived pgbench"}
[ "$DB" = postgres ] || VARIANTS=${VARIANTS//pgbench/}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
[ "$DB" = postgres ] || command -v sqlite3 >/dev/null || { apt-get update -qq && apt-get install -y -qq sqlite3 >/dev/null; }
. bench/lib.sh
export PGOPTIONS=${PGOPTIONS:--c client_min_messages=warning}

work=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$work"
  [ "$DB" = postgres ] && psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $PGDB WITH (FORCE)" \
    -c "DROP DATABASE IF EXISTS ${PGDB}_pgbench WITH (FORCE)" 2>/dev/null
  true
}
trap cleanup EXIT
go build -o "$work/parking" ./cmd/parking

# without VARIANT: what the variant takes out of a migrated database, as SQL of $DB.
without() {
  local off
  case $DB in
    sqlite) off() { for t in "$@"; do echo "DROP TRIGGER $t;"; done; } ;;
    postgres) off() { for t in "$@"; do echo "ALTER TABLE ${t%%.*} DISABLE TRIGGER ${t#*.};"; done; } ;;
  esac
  case $1 in
    no-reports)
      [ "$DB" = sqlite ] && off report_reservation_insert || off reservation.report_reservation_insert
      echo "DROP INDEX reservation_report_created; DROP INDEX reservation_report_pending;" ;;
    no-board)
      [ "$DB" = sqlite ] && off board_reservation_insert || off reservation.board_reservation_change
      echo "DROP INDEX reservation_entry_board; DROP INDEX reservation_exit_board;" ;;
    no-search)
      [ "$DB" = sqlite ] && off customer_name_fts_insert vehicle_plate_fts_insert ||
        off customer.customer_search_sync vehicle.vehicle_search_sync
      echo "DROP INDEX customer_name_lower;" ;;
    no-tallies) [ "$DB" = sqlite ] && off reservation_tally_insert || off reservation.reservation_tally_insert ;;
    no-history) echo "DROP INDEX reservation_created; DROP INDEX reservation_status_created; DROP INDEX reservation_channel;" ;;
    no-derived) for v in no-reports no-board no-search no-tallies no-history; do without "$v"; done ;;
  esac
}

results="$work/results"
: >"$results"
[ "$DB" = postgres ] && [[ " $VARIANTS " == *" pgbench "* ]] && pgbench_prepare "$PG" "${PGDB}_pgbench"
for round in $(seq 1 "$ROUNDS"); do
  for v in $VARIANTS; do
    echo "-- $DB $v round $round: $(uptime | sed 's/^ *//')"
    if [ "$v" = pgbench ]; then
      echo "$v $(run_pgbench "$PG" "${PGDB}_pgbench" "$DURATION")" | tee -a "$results"
      continue
    fi
    case $DB in
      sqlite) rm -f "$work"/x.db*; url="sqlite:$work/x.db" ;;
      postgres)
        psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $PGDB WITH (FORCE)" -c "CREATE DATABASE $PGDB" >/dev/null
        url="$PG/$PGDB?sslmode=disable" ;;
    esac
    port=$(free_port)
    capacity=$CAPACITY
    [ "$v" = no-capacity ] && capacity=0
    PARKING_CAPACITY=$capacity PARKING_PUBLIC_RATE=0 PARKING_LOG_LEVEL=warn PARKING_SQLITE_SYNC=$SQLITE_SYNC \
      PARKING_DATABASE_URL="$url" PARKING_ADDR="127.0.0.1:$port" "$work/parking" serve &
    pid=$!
    wait_ready "$port"
    sql=$(without "$v")
    if [ -n "$sql" ]; then
      case $DB in
        sqlite) sqlite3 "$work/x.db" <<<"$sql" ;;
        postgres) psql "$PG/$PGDB" -q -v ON_ERROR_STOP=1 <<<"$sql" >/dev/null ;;
      esac
    fi
    nokey=
    [ "$v" = no-key ] && nokey=1
    # A second's warm-up: the first bookings of a fresh server prepare its statements.
    BOOKING_NO_KEY=$nokey wrk -t2 -c50 -d1s -s bench/booking.lua "http://127.0.0.1:$port/api/reservations/public-new" >/dev/null
    out=$(BOOKING_NO_KEY=$nokey wrk -t2 -c50 -d"$DURATION" --latency -s bench/booking.lua \
      "http://127.0.0.1:$port/api/reservations/public-new")
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    bad=$(awk '/Non-2xx/ {print "  NOT VALID: non-2xx answers: " $NF}' <<<"$out")
    printf '   %-12s %8.0f req/s  p99 %s%s\n' "$v" "$rps" "$(awk '$1=="99%" {print $2}' <<<"$out")" "$bad"
    echo "$v $rps" >>"$results"
    kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
  done
done

echo "== summary: $DB$([ "$DB" = sqlite ] && echo " ($SQLITE_SYNC)"), capacity $CAPACITY, $ROUNDS rounds of $DURATION, median req/s (pgbench: tx/s)"
python3 - "$results" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    v, rps = line.split()
    runs.setdefault(v, []).append(float(rps))
base = statistics.median(runs["landed"]) if "landed" in runs else None
for v, rs in runs.items():
    med = statistics.median(rs)
    line = f"{v:12} {med:9.0f}"
    if base:
        line += f"  {med / base:.2f} of landed" if v != "pgbench" else f"  landed/pgbench {base / med:.2f}"
    print(line)
PY
