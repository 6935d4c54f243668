#!/usr/bin/env bash
# Sourced by start.sh, test.sh and bench.sh: puts Node.js 24 (the current LTS; Node 20 reached end of life on
# 2026-04-30 and the lockfile's content-disposition 3, cookie 2 and nanoid 6 need 22+) first on PATH. A machine whose
# Node is older gets it from the npm registry (the official build, published as node-linux-<arch>), kept in a cache
# directory outside the repository, so the README's two commands still set everything up on a fresh machine.
want=24
have=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$have" -lt "$want" ]; then
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "Node.js $want is needed and no build for $(uname -m) is published on the npm registry; install it first." >&2; exit 1 ;;
  esac
  dir="${INKSTONE_NODE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/inkstone/node$want-$arch}"
  bin="$dir/node_modules/node-linux-$arch/bin"
  if [ ! -x "$bin/node" ]; then
    echo "Node.js $have found, $want needed: installing node-linux-$arch@$want from the npm registry into $dir"
    mkdir -p "$dir"
    (cd "$dir" && npm install --no-save --no-package-lock --no-audit --no-fund --prefix "$dir" "node-linux-$arch@$want" >/dev/null)
  fi
  export PATH="$bin:$PATH"
  hash -r
fi
node -e "if (+process.versions.node.split('.')[0] < $want) { console.error('Node.js $want is needed, found ' + process.version); process.exit(1) }"
