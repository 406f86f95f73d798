/**
 * A quick probe of turnloop's per-turn overhead, outside the full benchmark: runs the bench workload through
 * `query()` with recording off and on, and the pure step() fold of the same events (the part of a turn that is not
 * the interpreter's), interleaved round by round like `run.ts`, and prints the median µs per turn pooled over the
 * rounds (a turn = the gap between consecutive model calls, as `run.ts` measures it).
 *
 * Usage: `node --import tsx query-probe.ts [turns=100] [rounds=15] [history=0]`; `PROBE=query,rec,fold,aisdk` picks
 * the systems (default: the three turnloop ones; `aisdk` is the Vercel AI SDK peer, for a same-conditions comparison).
 * Columns: per-turn median, p25, mean and p90 (wall), and `cpu`, the median CPU µs per turn of a whole run (GC
 * threads included). The machine's speed drifts (other tenants): compare systems within one run, and prefer p25.
 */
import { aiSdkSystem } from './systems/ai-sdk.ts';
import { cleanUpRecordings, turnloopFoldSystem, turnloopQuerySystem, turnloopRecordingSystem } from './systems/turnloop.ts';
import { checkRun, TurnProbe, type RunSpec, type System } from './workload.ts';

const [turns = 100, rounds = 15, history = 0] = process.argv.slice(2).map(Number);
const spec: RunSpec = { turns, history };
const byName: Record<string, System> = { query: turnloopQuerySystem, rec: turnloopRecordingSystem, fold: turnloopFoldSystem, aisdk: aiSdkSystem };
const systems = (process.env.PROBE ?? 'query,rec,fold').split(',').map((name) => {
  if (!(name in byName)) throw new Error(`PROBE: unknown system "${name}" (known: ${Object.keys(byName).join(', ')})`);
  return byName[name];
});

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}

/** CPU µs per turn of each measured run (user + system, whole run): steadier than wall time on a shared host. */
const cpuPerTurn = new Map<System, number[]>();

async function runOnce(system: System, run: RunSpec): Promise<number[]> {
  await system.before?.(run);
  const probe = new TurnProbe();
  const cpu = process.cpuUsage();
  await system.run(run, probe);
  const used = process.cpuUsage(cpu);
  checkRun(system.label, run, probe);
  if (run === spec) cpuPerTurn.set(system, [...(cpuPerTurn.get(system) ?? []), (used.user + used.system) / (run.turns + 1)]);
  return probe.turnMicros();
}

try {
  // Warm-up, as run.ts does: small runs first so the JIT has seen the code.
  for (const system of systems) for (let i = 0; i < 5; i++) await runOnce(system, { turns: 10, history: 10 });
  const pooled = new Map<System, number[]>(systems.map((s) => [s, []]));
  for (let round = 0; round < rounds; round++) {
    for (const system of systems) pooled.get(system)!.push(...(await runOnce(system, spec)));
  }
  for (const [system, micros] of pooled) {
    const mean = micros.reduce((a, b) => a + b, 0) / micros.length;
    console.log(
      `${system.label.padEnd(13)} median ${quantile(micros, 0.5).toFixed(0).padStart(5)} µs/turn  p25 ${quantile(micros, 0.25).toFixed(0).padStart(5)}  mean ${mean.toFixed(0).padStart(5)}  p90 ${quantile(micros, 0.9).toFixed(0).padStart(5)}  cpu ${quantile(cpuPerTurn.get(system) ?? [], 0.5).toFixed(0).padStart(5)}  (N=${turns} H=${history} ×${rounds})`,
    );
  }
} finally {
  cleanUpRecordings();
}
