/**
 * Promises made per turn of a short run (round 13, docs/benchmarks.md "Round 13: short runs (issue 44)").
 *
 * `node --import tsx short-turn-promises.ts <root> [turns] [history] [--where]` (in bench/): the build at `<root>/dist` runs the
 * bench's `query()` workload 50 times to warm up, then once with an `async_hooks` hook counting every promise made
 * between the first and the last model call; prints promises per turn. `--where` also prints the turn's promises
 * by the first frame of `dist/` that made them (a stack per promise: slow, for reading only).
 */
import { createHook } from 'node:async_hooks';
import { loadSide } from './core-ab-sides.ts';
import { TurnProbe } from './workload.ts';

const args = process.argv.slice(2);
const where = args.includes('--where');
const [root, turnsText, historyText] = args.filter((arg) => arg !== '--where');
if (!root) throw new Error('usage: short-turn-promises.ts <root> [turns] [history] [--where]');
const side = await loadSide('after', root);
const spec = { turns: Number(turnsText ?? 10), history: Number(historyText ?? 10) };
for (let i = 0; i < 50; i++) await side.runQuery(spec, new TurnProbe());

/** A probe that counts promises only between its first and its last model call. */
class CountingProbe extends TurnProbe {
  seen = 0;
  counting = false;
  override next(turns: number) {
    this.seen += 1;
    this.counting = this.seen <= turns;
    return super.next(turns);
  }
}
const probe = new CountingProbe();
let count = 0;
const sites = new Map<string, number>();
const hook = createHook({
  init(_id, type) {
    if (type !== 'PROMISE' || !probe.counting) return;
    count += 1;
    if (!where) return;
    const frames = (new Error().stack ?? '').split('\n').slice(2);
    const frame = frames.find((line) => line.includes('/dist/') && !line.includes('async_hooks')) ?? frames[0] ?? '?';
    const site = frame.replace(/^\s*at /, '').replace(/\(file:\/\/[^)]*\/dist\//, '(').trim();
    sites.set(site, (sites.get(site) ?? 0) + 1);
  },
});
hook.enable();
await side.runQuery(spec, probe);
hook.disable();
side.cleanUp();
console.log(JSON.stringify({ root, promisesPerTurn: count / spec.turns }));
if (where) for (const [site, n] of [...sites].sort((a, b) => b[1] - a[1])) console.log(String(n / spec.turns).padStart(5), site);
