#!/usr/bin/env bash
# A build in its own folders (apps/server/dist-NAME, apps/web/dist-NAME), so that several people working in one checkout
# can run the e2e suite without rebuilding each other's dist/ under a running server:
#   bash scripts/build-private.sh h2 && E2E_BUILD=h2 npx playwright test -c e2e/playwright.config.ts specs/x.spec.ts
set -euo pipefail
name="${1:?usage: build-private.sh NAME}"
cd "$(dirname "$0")/.."
npm run build -w @inkstone/shared >/dev/null
(cd apps/web && npx vite build --outDir "dist-$name" --emptyOutDir >/dev/null)
(cd apps/server && npx tsc -p tsconfig.build.json --outDir "dist-$name")
node scripts/copy-server-assets.mjs "dist-$name"
echo "built apps/server/dist-$name and apps/web/dist-$name"
