/**
 * The bench's two short cells alone, as `npm run bench` measures them (round 12, docs/benchmarks.md "Round 12:
 * short runs"): every system of the grid, the bench's warm-up (five 10-turn runs with a 10-message history and one
 * 30-turn run with 100 per system), then N=10 and H=10 with the systems rotating per round and two full GCs before
 * and after every run. Prints one JSON line: the floor's and turnloop's pooled per-turn medians and their ratio
 * per cell. Against this tree's dist; run it alternately in two trees for a paired A/B.
 *
 * `node --expose-gc --import tsx short-cells-probe.ts [rounds] [labels]` (in bench/): `rounds` per cell (the
 * bench's 15 by default); `labels`, comma-separated (`floor,turnloop`), runs only those systems. `WARM=n` runs n
 * warm-up runs per system instead of five (how much of the N=10 cell is the JIT still warming up).
 */
import { SYSTEMS } from './matrix.ts';
import { median } from './stats.ts';
import { cleanUpRecordings } from './systems/turnloop.ts';
import { TurnProbe, type RunSpec, type System } from './workload.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const collect = gc;
const rounds = Number(process.argv[2] ?? 15);
// Optional: only these systems (comma-separated labels), to see which peer's runs cost turnloop's.
const only = process.argv[3]?.split(',');
const systems = only ? SYSTEMS.filter((s) => only.includes(s.label)) : SYSTEMS;

async function runOnce(system: System, spec: RunSpec): Promise<number[]> {
  await system.before?.(spec);
  collect();
  collect();
  const probe = new TurnProbe();
  const result = await system.run(spec, probe);
  collect();
  collect();
  if (result.retained === undefined) throw new Error(`${system.label}: nothing retained`);
  return probe.turnMicros();
}

for (const system of systems) {
  for (let i = 0; i < Number(process.env.WARM ?? 5); i++) await runOnce(system, { turns: 10, history: 10 });
  await runOnce(system, { turns: 30, history: 100 });
}
const out: Record<string, number> = {};
for (const [id, spec] of [['N=10', { turns: 10, history: 0 }], ['H=10', { turns: 10, history: 10 }]] as const) {
  const pooled = new Map<System, number[]>(systems.map((s) => [s, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < systems.length; k++) {
      const system = systems[(k + round) % systems.length];
      pooled.get(system)?.push(...(await runOnce(system, spec)));
    }
  }
  const of = (label: string) => median(pooled.get(systems.find((s) => s.label === label) as System) ?? []);
  out[`${id} floor`] = Number(of('floor').toFixed(2));
  out[`${id} turnloop`] = Number(of('turnloop').toFixed(1));
  out[`${id} ratio`] = Number((of('turnloop') / of('floor')).toFixed(1));
}
cleanUpRecordings();
console.log(JSON.stringify(out));
process.exit(0);
