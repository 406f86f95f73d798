#!/usr/bin/env bash
# First contact, timed: a fresh clone of this repository's HEAD, `npm install`, then `npx turnloop demo`, as the
# README's first line says. Prints the wall times, the packages installed and the load average (numbers for the
# "First contact" section of docs/benchmarks.md). Uses the npm cache as it is (a first install ever is slower).
# With --suites, then times the install of each heavy suite's own package folder in that clone (what
# `npm run test:browser`, `test:interop` and `test:mutation` install before they run).
#
#   bash scripts/measure-clone.sh [--suites]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/turnloop-clone-XXXXXX")"
trap 'rm -rf "$work"' EXIT
git clone --quiet "$repo" "$work/turnloop"
cd "$work/turnloop"
now() { date +%s.%N; }
start=$(now)
npm install --no-audit --no-fund > "$work/install.log" 2>&1 || { cat "$work/install.log" >&2; exit 1; }
installed=$(now)
npx turnloop demo > "$work/demo.log" 2>&1 || { cat "$work/demo.log" >&2; exit 1; }
demoed=$(now)
echo "commit: $(git rev-parse --short HEAD)"
echo "npm install: $(echo "$installed - $start" | bc | xargs printf '%.0f') s ($(grep -oE 'added [0-9]+ packages' "$work/install.log" || echo "? packages"))"
echo "npx turnloop demo: $(echo "$demoed - $installed" | bc | xargs printf '%.1f') s ($(grep -E '^terminal:' "$work/demo.log" | head -1))"
echo "node_modules: $(du -sm node_modules | cut -f1) MiB"
echo "install warnings: $(grep -c 'npm warn' "$work/install.log" || true)"
grep 'npm warn' "$work/install.log" | grep -v EBADENGINE | sed 's/^/  /' || true
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
if [[ "${1:-}" == --suites ]]; then
  for suite in test/browser test/interop mutation; do
    start=$(now)
    sh scripts/ensure-installed.sh "$suite" > "$work/suite.log" 2>&1 || { cat "$work/suite.log" >&2; exit 1; }
    echo "$suite: $(echo "$(now) - $start" | bc | xargs printf '%.0f') s ($(grep -oE 'added [0-9]+ packages' "$work/suite.log" || echo "? packages"), $(du -sm "$suite/node_modules" | cut -f1) MiB, install warnings: $(grep -c 'npm warn' "$work/suite.log" || true))"
  done
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
fi
