#!/usr/bin/env bash
# Benchmarks: builds if needed, starts the loopback PostgreSQL the database scenarios use, runs bench/.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f apps/server/dist/main.js ] && [ -f apps/web/dist/index.html ] || npm run build
export BENCH_DATABASE_URL=${BENCH_DATABASE_URL:-$(PG_TEST_PORT=${PG_BENCH_PORT:-54339} bash scripts/pg-test-server.sh start)}
trap 'PG_TEST_PORT=${PG_BENCH_PORT:-54339} bash scripts/pg-test-server.sh stop' EXIT
node --import tsx bench/run.ts "$@"
