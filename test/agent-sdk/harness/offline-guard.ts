/**
 * The safety check run before any executable is spawned: the process must live in a network namespace whose only
 * interface is the loopback (`run-offline.sh` makes one with `unshare --net`). The real `claude` must never reach
 * the network, so a run outside the namespace fails here, before anything starts.
 */
import { readFileSync } from 'node:fs';

/**
 * The network interfaces of this process's namespace. `/proc/self/net/dev` follows the namespace (unlike
 * `/sys/class/net`, which shows the namespace sysfs was mounted in): two header lines, then `name: counters`.
 */
export function networkInterfaces(): string[] {
  return readFileSync('/proc/self/net/dev', 'utf8')
    .split('\n')
    .slice(2)
    .map((line) => line.split(':')[0].trim())
    .filter(Boolean)
    .sort();
}

/** Throws unless loopback is the only interface. */
export function assertLoopbackOnly(): void {
  const found = networkInterfaces();
  if (found.length !== 1 || found[0] !== 'lo') {
    throw new Error(
      `test/agent-sdk must run inside a network namespace with loopback alone (found interfaces: ${found.join(', ')}); ` +
        'run it through `npm test` in test/agent-sdk (run-offline.sh), never with a bare `vitest`',
    );
  }
}
