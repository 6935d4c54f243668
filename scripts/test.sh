#!/usr/bin/env bash
# The whole test suite: system packages, npm packages, build, lint, unit + integration (PGlite and
# PostgreSQL, Redis), e2e in Debian chromium against the production build.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh
bash scripts/install-system-deps.sh test
if [ "${CI:-}" = "true" ] || [ ! -d node_modules ]; then npm ci --no-audit --no-fund; fi
npm run build
npm run lint

# Assigned before export: `export X=$(cmd)` would hide a failed start from set -e, and the PostgreSQL and Redis
# suites would only be reported as skipped. `npm test` always runs them.
cleanup() { bash scripts/pg-test-server.sh stop; bash scripts/redis-test-server.sh stop; }
trap cleanup EXIT
TEST_DATABASE_URL=$(bash scripts/pg-test-server.sh start)
TEST_REDIS_URL=$(bash scripts/redis-test-server.sh start)
: "${TEST_DATABASE_URL:?the test PostgreSQL server did not start}" "${TEST_REDIS_URL:?the test Redis server did not start}"
export TEST_DATABASE_URL TEST_REDIS_URL

npx vitest run
npx playwright test -c e2e/playwright.config.ts
