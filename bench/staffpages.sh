#!/usr/bin/env bash
# Lighthouse (mobile, Chromium) on the staff pages a counter lives on, with a million
# reservations of a 1,000-place car park (docs/performance.md#staff-pages):
#   bench/staffpages.sh                      # SQLite, dashboard and parking board, 3 runs each
#   RUNS=5 PAGES="/admin/dashboard" bench/staffpages.sh
#   REV=23315c0 bench/staffpages.sh          # that commit's build and this tree's, alternated
# The database is generated once with `parking generate` and reused (delete
# $BENCH_DIR/bench.db to start again). Each run prints the load average before it.
# Needs chromium (Debian) and lighthouse@12 (npm, installed on first use in $BENCH_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_DIR=${BENCH_DIR:-/var/tmp/parking-bench}
RUNS=${RUNS:-3}
PAGES=${PAGES:-"/admin/dashboard /admin/parking"}
PORT=${PORT:-18190}
REV=${REV:-}
mkdir -p "$BENCH_DIR"
command -v chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }
[ -x "$BENCH_DIR/node_modules/.bin/lighthouse" ] ||
  (cd "$BENCH_DIR" && npm install --silent --no-audit --no-fund lighthouse@12 >/dev/null)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -n "$REV" ] && git worktree remove --force "$work/base" 2>/dev/null; rm -rf "$work"' EXIT

go build -o "$work/new" ./cmd/parking
builds="new"
if [ -n "$REV" ]; then
  git worktree add -q --detach "$work/base" "$REV"
  (cd "$work/base" && go build -o "$work/old" ./cmd/parking)
  builds="old new"
fi

db="$BENCH_DIR/bench.db"
if [ ! -f "$db" ]; then
  echo "generating $db: 1,000,000 reservations, 1,000 places (a few minutes)…"
  "$work/new" generate --database-url "sqlite:$db" --reservations 1000000 --places 1000
fi
# Migrations run at start; the older build must not see a newer schema, so each build
# gets its own copy of the database (copied once).
email=bench-staff@example.com password=bench-staff-password

start() { # build → serves on $PORT with its own copy of the database
  local b=$1
  [ -f "$work/$b.db" ] || { cp "$db" "$work/$b.db"; "$work/$b" admin create --email "$email" --password "$password" --database-url "sqlite:$work/$b.db" >/dev/null 2>&1; }
  PARKING_LOG_LEVEL=warn PARKING_DATABASE_URL="sqlite:$work/$b.db" PARKING_ADDR="127.0.0.1:$PORT" PARKING_PUBLIC_RATE=0 "$work/$b" serve &
  pid=$!
  for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null && return; sleep 0.2; done
  echo "the $b build did not become ready" >&2; exit 1
}

for run in $(seq 1 "$RUNS"); do
  for b in $builds; do
    start "$b"
    cookie=$(curl -s -o /dev/null -D - -H "Origin: http://127.0.0.1:$PORT" \
      --data-urlencode "email=$email" --data-urlencode "password=$password" --data "loginType=worker" \
      "http://127.0.0.1:$PORT/users/login" | sed -n 's/^[Ss]et-[Cc]ookie: \([^;]*\).*/\1/p' | head -1)
    [ -n "$cookie" ] || { echo "login failed for the $b build" >&2; exit 1; }
    for page in $PAGES; do
      echo "== $b $page run $run, load average $(cut -d' ' -f1-3 /proc/loadavg)"
      CHROME_PATH=$(command -v chromium) "$BENCH_DIR/node_modules/.bin/lighthouse" "http://127.0.0.1:$PORT$page" \
        --quiet --only-categories=performance --output=json --output-path="$work/lh.json" \
        --chrome-flags="--headless --no-sandbox" --extra-headers="{\"Cookie\":\"$cookie\"}" >/dev/null 2>&1 || true
      node -e '
        const r = require(process.argv[1]); const a = r.audits;
        const f = (k) => a[k] && a[k].numericValue != null ? Math.round(a[k].numericValue) : "?";
        console.log(`score ${Math.round(r.categories.performance.score * 100)}  LCP ${f("largest-contentful-paint")} ms  TBT ${f("total-blocking-time")} ms  bytes ${Math.round(f("total-byte-weight") / 1024)} KiB  DOM ${f("dom-size")}`);
        if (r.finalDisplayedUrl && !r.finalDisplayedUrl.endsWith(process.argv[2])) console.log("  (redirected to " + r.finalDisplayedUrl + ": not logged in?)");
      ' "$work/lh.json" "$page"
    done
    kill "$pid"; wait "$pid" 2>/dev/null || true
  done
done
