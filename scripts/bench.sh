#!/usr/bin/env bash
# Benchmarks (issue 11's table, with ratios and PASS/FAIL). Runs the built product: the shared dist/ (built if missing), or
# BENCH_BUILD=<name> a private build (apps/*/dist-<name>, made by scripts/build-private.sh if missing; `src` runs the
# sources through tsx). Database scenarios use BENCH_DATABASE_URL, else a loopback PostgreSQL started here.
#   npm run bench [-- scenario-name-part ...]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh
if [ -n "${BENCH_BUILD:-}" ]; then
  if [ "$BENCH_BUILD" != src ] && ! { [ -f "apps/server/dist-$BENCH_BUILD/main.js" ] && [ -f "apps/web/dist-$BENCH_BUILD/index.html" ]; }; then
    bash scripts/build-private.sh "$BENCH_BUILD"
  fi
else
  [ -f apps/server/dist/main.js ] && [ -f apps/web/dist/index.html ] || npm run build
fi
if [ -z "${BENCH_DATABASE_URL:-}" ]; then
  export BENCH_DATABASE_URL=$(PG_TEST_PORT=${PG_BENCH_PORT:-54339} bash scripts/pg-test-server.sh start)
  trap 'PG_TEST_PORT=${PG_BENCH_PORT:-54339} bash scripts/pg-test-server.sh stop' EXIT
fi
node --import tsx bench/run.ts "$@"
