#!/usr/bin/env bash
# Quick start on the embedded defaults: install, build, migrate (on start) and serve on $PORT (default 3000).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh
bash scripts/install-system-deps.sh runtime
[ -d node_modules ] || npm ci --no-audit --no-fund
npm run build
exec npm run serve
