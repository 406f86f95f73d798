#!/bin/sh
# Runs a command of this package (vitest, the bench) inside a network namespace that has the loopback interface
# alone, so the real `claude` it spawns, the SDK and the fake API can reach 127.0.0.1 and nothing else.
# Everything the command starts inherits the namespace and the variables below.
set -eu
cd "$(dirname "$0")"
root="$(cd ../.. && pwd)"
# turnloop's bin runs from the root's build; build it once when it is missing.
if [ ! -f "$root/dist/cli/main.js" ]; then
  echo "test/agent-sdk: building turnloop (dist/ is missing)" >&2
  npm --prefix "$root" run build >&2
fi
export CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 DISABLE_ERROR_REPORTING=1
exec unshare --net sh -c 'ip link set lo up && exec npx --no-install "$@"' offline-namespace "$@"
