#!/bin/sh
# Installs the package folder DIR (a heavy suite's own tools: test/browser, test/interop, mutation, test/agent-sdk)
# with `npm ci`, unless DIR/node_modules already holds exactly what DIR/package-lock.json names: a stamp of the
# lock's hash is written after a successful install. Extra arguments go to `npm ci`.
#
#   sh scripts/ensure-installed.sh test/browser
set -eu
dir="$1"
shift
cd "$(dirname "$0")/../$dir"
stamp=node_modules/.installed-lock.sha256
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
echo "installing $dir (its own package.json and lock)"
npm ci --no-audit --no-fund "$@"
echo "$want" > "$stamp"
