/**
 * The bench's method (`run.ts`: the same warm-up, two full GCs before each run, the order rotated per round) with a
 * subset of its systems, each short size measured twice in a row: how much of a cell is the JIT still warming up.
 * In `npm run bench` N=10 is the first size measured after the warm-up (5 runs at H=10 and one 30-turn run per
 * system), so its figure includes code not yet optimised; the second pass here shows the same size warm.
 *
 * `SYSTEMS=floor,turnloop,turnloop+rec ROUNDS=40 node --expose-gc --import tsx subset-probe.ts` (in bench/); prints
 * one line per pass and size: each system's median µs per turn pooled over the rounds.
 */
import { SYSTEMS } from './matrix.ts';
import { median } from './stats.ts';
import { TurnProbe, type RunSpec, type System } from './workload.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const collect = gc;
const labels = (process.env.SYSTEMS ?? 'floor,turnloop,turnloop+rec').split(',');
const systems = SYSTEMS.filter((system) => labels.includes(system.label));
if (systems.length !== labels.length) throw new Error(`SYSTEMS: pick from ${SYSTEMS.map((s) => s.label).join(', ')}`);
const rounds = Number(process.env.ROUNDS ?? 30);

async function turnsOfOneRun(system: System, spec: RunSpec): Promise<number[]> {
  await system.before?.(spec);
  collect();
  collect();
  const probe = new TurnProbe();
  await system.run(spec, probe);
  return probe.turnMicros();
}

for (const system of systems) {
  for (let i = 0; i < 5; i++) await turnsOfOneRun(system, { turns: 10, history: 10 });
  await turnsOfOneRun(system, { turns: 30, history: 100 });
}
for (const pass of [1, 2]) {
  for (const spec of [{ turns: 10, history: 0 }, { turns: 10, history: 10 }]) {
    const pooled = new Map(systems.map((system) => [system.label, [] as number[]]));
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < systems.length; k++) {
        const system = systems[(k + round) % systems.length];
        pooled.get(system.label)?.push(...(await turnsOfOneRun(system, spec)));
      }
    }
    const cells = [...pooled].map(([label, micros]) => `${label} ${median(micros).toFixed(1)}`);
    console.log(`pass ${pass} N=${spec.turns} H=${spec.history}: ${cells.join(' | ')}`);
  }
}
