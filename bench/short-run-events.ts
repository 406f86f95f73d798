/**
 * The events a build records for the bench's `query()` workload, normalized for a before/after diff (round 13,
 * docs/benchmarks.md "Round 13: short runs (issue 44)").
 *
 * `node --import tsx short-run-events.ts <root>` (in bench/): records N=10, H=10 and N=100 with the build at
 * `<root>/dist` (its own `createSessionRecorder`) and prints every logged event, one per line, with the values that
 * differ from run to run by design (random ids, the clock) replaced by their order of appearance. Two builds that
 * feed the reducer the same events in the same order print the same text.
 */
import { loadSide } from './core-ab-sides.ts';

const root = process.argv[2];
if (!root) throw new Error('usage: short-run-events.ts <root>');
const side = await loadSide('after', root);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /"timestamp":\d+/g;
for (const spec of [{ turns: 10, history: 0 }, { turns: 10, history: 10 }, { turns: 100, history: 0 }]) {
  const session = await side.session(spec);
  const seen = new Map<string, string>();
  const named = (kind: string) => (value: string) => {
    if (!seen.has(value)) seen.set(value, `<${kind}${seen.size}>`);
    return seen.get(value)!;
  };
  console.log(`# turns=${spec.turns} history=${spec.history}`);
  for (const event of session.events) console.log(JSON.stringify(event).replace(UUID, named('id')).replace(TIME, '"timestamp":<clock>'));
}
side.cleanUp();
