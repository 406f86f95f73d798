#!/bin/sh
# Installs this package (the SDK and its ~400 MB native claude) with `npm ci`, unless node_modules already holds
# exactly what package-lock.json names: a stamp of the lock's hash is written after a successful install.
set -eu
cd "$(dirname "$0")"
stamp=node_modules/.installed-lock.sha256
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
npm ci --no-audit --no-fund
echo "$want" > "$stamp"
