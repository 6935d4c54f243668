#!/usr/bin/env bash
# Installs the Debian packages Inkstone needs, only those missing (needs root, as on the project's machines).
#   runtime: chromium + xvfb + CJK and emoji fonts + hb-subset (cards; the publisher drives platform sites with a real browser)
#   test:    runtime + PostgreSQL and Redis servers for the integration suite
set -euo pipefail
mode=${1:-test}
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
# The X server headful Chromium draws on (BROWSER_HEADFUL=true without a DISPLAY); the pool's tests run it too.
command -v Xvfb >/dev/null || need+=(xvfb)
fc-list 2>/dev/null | grep -qi 'Noto Sans CJK' || need+=(fonts-noto-cjk)
# Emoji on rendered cards (resvg draws outline fonts only, not colour bitmap emoji).
fc-list 2>/dev/null | grep -qi 'Symbola' || need+=(fonts-symbola)
# hb-subset cuts the 20 MB CJK fonts down to each card's characters (cards render ~4x faster; integrations/cards/fonts.ts).
command -v hb-subset >/dev/null || need+=(libharfbuzz-bin)
if [ "$mode" = test ]; then
  command -v redis-server >/dev/null || [ -x /usr/bin/redis-server ] || need+=(redis-server)
  ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "Installing system packages: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
