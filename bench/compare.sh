#!/usr/bin/env bash
# Side-by-side guard (docs/performance.md#how-to-measure): builds REV (a git worktree in a
# temporary folder, removed on exit) and the work tree, starts both on each database and
# runs them ALTERNATED with wrk (2 threads, 50 connections): old, new, old, new ... so that
# both builds see the same machine load. Prints each figure (requests/s) per round, then
# per scenario the median over the rounds and the ratio new/old; for the quote also the
# ratio of each build to bench/bare, a bare net/http server decoding the same JSON (run in
# the same alternation): the ceiling a handler can approach.
#
#   bench/compare.sh f93a9d2                   # both databases, every scenario, 2 rounds of 5 s
#   ROUNDS=3 DURATION=8s bench/compare.sh main
#   DBS=sqlite SCENARIOS="quote booking" bench/compare.sh HEAD~1
#   CAPACITY=1000000 bench/compare.sh f93a9d2  # capacity on (seeded at first start), never reached
#
# Scenarios (SCENARIOS, default all):
#   quote         POST /api/pricing/dynamic (bench/pricing.lua), and bench/bare alongside
#   booking       POST /api/reservations/public-new (bench/booking.lua)
#   availability  GET /api/availability over 30 days, starting a week ahead
#   details       GET /admin/reservations/details/{id} with an administrator's session:
#                 the page the counter opens to check a car in
#   checkin       PATCH /admin/reservations/{id}/start (bench/checkin.lua), each of CHECKINS
#                 walk-ins readied before the run (bench/checkinprep: a spot and five
#                 photos each, through the operations) checked in once; the run lasts
#                 CHECKIN_DURATION (default 2s) and is marked not valid if it ran out of
#                 reservations (raise CHECKINS)
#   pgbench       PostgreSQL only, run in the booking's alternation (old, new, pgbench): pgbench
#                 with the same 50 clients (2 threads), prepared protocol, for DURATION, running
#                 bench/pgbench-ten.sql (BEGIN, ten inserts/updates, END) on scratch tables in
#                 its own database parking_cmp_pgbench (dropped on exit). The summary prints
#                 each build's booking rate over pgbench's transaction rate: the target of
#                 docs/performance.md#targets is checked in one run.
# Each server has its own scratch database: a SQLite file in the temporary folder, or the
# PostgreSQL databases parking_cmp_old / parking_cmp_new (dropped and created; dropped again on exit;
# PGDB=parking_cmp2 names them otherwise, for two runs on one server at once). Servers run
# with PARKING_PUBLIC_RATE=0, PARKING_LOG_LEVEL=warn, SQLite's default durability (FULL;
# SQLITE_SYNC=NORMAL to change both), PostgreSQL with synchronous_commit on. Ports are free
# ones chosen at start. `uptime` is printed before each run: the figures mean little without
# the load. Loopback only.
set -euo pipefail
REV=${1:?usage: bench/compare.sh REV}
cd "$(dirname "$0")/.."
DURATION=${DURATION:-5s}
ROUNDS=${ROUNDS:-2}
DBS=${DBS:-"sqlite postgres"}
SCENARIOS=${SCENARIOS:-"quote booking pgbench availability details checkin"}
CHECKINS=${CHECKINS:-6000}
CHECKIN_DURATION=${CHECKIN_DURATION:-2s}
CAPACITY=${CAPACITY:-0}
SQLITE_SYNC=${SQLITE_SYNC:-FULL}
PG=${PG:-postgres://postgres@127.0.0.1:5432}
PGDB=${PGDB:-parking_cmp}
ADMIN_EMAIL=bench@parking.es
ADMIN_PASSWORD=bench-password-1
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
. bench/lib.sh

work=$(mktemp -d)
old_tree="$work/old-tree"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  git worktree remove --force "$old_tree" 2>/dev/null || true
  rm -rf "$work"
  case " $DBS " in *" postgres "*)
    psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS ${PGDB}_old WITH (FORCE)" -c "DROP DATABASE IF EXISTS ${PGDB}_new WITH (FORCE)" \
      -c "DROP DATABASE IF EXISTS ${PGDB}_pgbench WITH (FORCE)" 2>/dev/null || true ;;
  esac
}
trap cleanup EXIT

echo "== building $REV ($(git rev-parse --short "$REV")) and the work tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ', with changes'))"
git worktree add -q --detach "$old_tree" "$REV"
(cd "$old_tree" && go build -o "$work/parking-old" ./cmd/parking)
go build -o "$work/parking-new" ./cmd/parking
go build -o "$work/bare" ./bench/bare
go build -o "$work/checkinprep" ./bench/checkinprep
bare_port=$(free_port)
"$work/bare" -addr "127.0.0.1:$bare_port" & pids+=($!)
wait_ready "$bare_port"

# start BUILD DB: starts the build on its own scratch database; sets port_<build>.
start() {
  local build=$1 db=$2 url port
  case $db in
    sqlite) rm -f "$work/$build.db"*; url="sqlite:$work/$build.db" ;;
    postgres)
      psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS ${PGDB}_$build WITH (FORCE)" -c "CREATE DATABASE ${PGDB}_$build" >/dev/null
      url="$PG/${PGDB}_$build?sslmode=disable" ;;
    *) echo "unknown database $db (sqlite or postgres)" >&2; exit 2 ;;
  esac
  port=$(free_port)
  PARKING_CAPACITY=$CAPACITY PARKING_PUBLIC_RATE=0 PARKING_LOG_LEVEL=warn PARKING_SQLITE_SYNC=$SQLITE_SYNC \
    PARKING_ADMIN_EMAIL=$ADMIN_EMAIL PARKING_ADMIN_PASSWORD=$ADMIN_PASSWORD \
    PARKING_DATABASE_URL="$url" PARKING_ADDR="127.0.0.1:$port" "$work/parking-$build" serve & pids+=($!)
  eval "pid_$build=$!; port_$build=$port; url_$build='$url'"
  wait_ready "$port"
}

# prepare PORT BUILD: an administrator's session and one booking, for the details scenario;
# checks that the page answers 200 with that session (a redirect to the login would be fast).
prepare() {
  local port=$1 build=$2 cookie id body entry exit
  curl -sf -o /dev/null -c "$work/jar-$build" -d "email=$ADMIN_EMAIL&password=$ADMIN_PASSWORD&loginType=worker" \
    "http://127.0.0.1:$port/users/login"
  cookie=$(awk '!/^# / && NF >= 7 {printf "%s%s=%s", sep, $6, $7; sep="; "}' "$work/jar-$build")
  entry=$(date -u -d '+7 days' +%Y-%m-%dT10:00); exit=$(date -u -d '+14 days' +%Y-%m-%dT18:00)
  body="{\"full_name\":\"Cliente Detalle\",\"phone\":\"612345678\",\"email\":\"detalle@example.com\",\"license_plate\":\"1234BCD\",\"vehicle_type\":\"TURISMO\",\"entry_date\":\"$entry\",\"exit_date\":\"$exit\",\"id_main_service\":1,\"additional_services\":[1]}"
  id=$(curl -sf -H 'Content-Type: application/json' -d "$body" "http://127.0.0.1:$port/api/reservations/public-new" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["id_reservation"])')
  [ "$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: $cookie" "http://127.0.0.1:$port/admin/reservations/details/$id")" = 200 ] ||
    { echo "$build: the staff detail page does not answer 200 with the administrator's session" >&2; exit 1; }
  printf -v "cookie_$build" '%s' "$cookie"; printf -v "detail_$build" '%s' "$id"
}

checkin_tag=0
results="$work/results"
: >"$results"
from=$(date -u -d '+7 days' +%Y-%m-%d); to=$(date -u -d '+36 days' +%Y-%m-%d)

# run_pgbench_round DB ROUND: one pgbench run, its transactions per second appended to the results.
run_pgbench_round() {
  local db=$1 round=$2 tps
  echo "-- $db pgbench round $round: $(uptime | sed 's/^ *//')"
  tps=$(run_pgbench "$PG" "${PGDB}_pgbench" "$DURATION")
  printf '   %-5s %10.0f tx/s\n' pgbench "$tps"
  echo "$db booking pgbench $tps" >>"$results"
}

# run DB SCENARIO ROUND BUILD PORT: one wrk run, its figure appended to the results.
run() {
  local db=$1 scenario=$2 round=$3 build=$4 port=$5 url args=() out rps bad duration=$DURATION done
  case $scenario in
    quote) args=(-s bench/pricing.lua); url="http://127.0.0.1:$port/api/pricing/dynamic" ;;
    booking) args=(-s bench/booking.lua); url="http://127.0.0.1:$port/api/reservations/public-new" ;;
    availability) url="http://127.0.0.1:$port/api/availability?from=$from&to=$to" ;;
    details)
      local c=cookie_$build d=detail_$build
      args=(-H "Cookie: ${!c}"); url="http://127.0.0.1:$port/admin/reservations/details/${!d}" ;;
    checkin)
      local c=cookie_$build u=url_$build range
      checkin_tag=$((checkin_tag + 1))
      range=$("$work/checkinprep" -database-url "${!u}" -n "$CHECKINS" -tag "$checkin_tag")
      export FIRST=${range% *} LAST=${range#* } COOKIE=${!c}
      args=(-s bench/checkin.lua); duration=$CHECKIN_DURATION; url="http://127.0.0.1:$port" ;;
    *) echo "unknown scenario $scenario" >&2; exit 2 ;;
  esac
  echo "-- $db $scenario round $round $build: $(uptime | sed 's/^ *//')"
  out=$(wrk -t2 -c50 -d"$duration" --latency "${args[@]}" "$url")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  bad=$(awk '/Non-2xx/ {print "non-2xx answers: " $NF}' <<<"$out")
  done=$(awk '/requests in/ {print $1}' <<<"$out")
  if [ "$scenario" = checkin ] && [ "$done" -ge $((CHECKINS - 100)) ]; then
    bad="ran out of reservations: $done of $CHECKINS"
  fi
  printf '   %-5s %10.0f req/s  p99 %s%s\n' "$build" "$rps" "$(awk '$1=="99%" {print $2}' <<<"$out")" \
    "${bad:+  NOT VALID: $bad}"
  echo "$db $scenario $build $rps" >>"$results"
}

for db in $DBS; do
  start old "$db"; start new "$db"
  prepare "$port_old" old; prepare "$port_new" new
  pgbench=
  case " $SCENARIOS " in *" pgbench "*) [ "$db" = postgres ] && { pgbench=1; pgbench_prepare "$PG" "${PGDB}_pgbench"; } ;; esac
  for scenario in $SCENARIOS; do
    [ "$scenario" = pgbench ] && continue # run in the booking's alternation
    for round in $(seq 1 "$ROUNDS"); do
      run "$db" "$scenario" "$round" old "$port_old"
      run "$db" "$scenario" "$round" new "$port_new"
      [ "$scenario" = quote ] && run "$db" "$scenario" "$round" bare "$bare_port"
      [ "$scenario" = booking ] && [ -n "$pgbench" ] && run_pgbench_round "$db" "$round"
    done
  done
  kill "$pid_old" "$pid_new"; wait "$pid_old" "$pid_new" 2>/dev/null || true
done

echo "== summary: $REV against the work tree, capacity $CAPACITY, $ROUNDS rounds of $DURATION, median req/s"
python3 - "$results" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    db, sc, build, rps = line.split()
    runs.setdefault((db, sc), {}).setdefault(build, []).append(float(rps))
for (db, sc), b in runs.items():
    med = {k: statistics.median(v) for k, v in b.items()}
    line = f"{db:8} {sc:12} old {med['old']:9.0f}  new {med['new']:9.0f}  new/old {med['new'] / med['old']:.2f}"
    if 'bare' in med:
        line += f"  bare {med['bare']:9.0f}  old/bare {med['old'] / med['bare']:.2f}  new/bare {med['new'] / med['bare']:.2f}"
    if 'pgbench' in med:
        line += f"  pgbench {med['pgbench']:7.0f} tx/s  old/pgbench {med['old'] / med['pgbench']:.2f}  new/pgbench {med['new'] / med['pgbench']:.2f}"
    print(line)
PY
