/**
 * A scripted run held by the live inspector before its third model call (two tool rounds on the timeline), for
 * the page's layout test and for `test/browser/screenshot-inspector.ts`, which takes docs/inspector.png from it.
 */
import { startInspector, type Inspector } from '../../../src/inspector/inspector.ts';
import { parseScenario } from '../../../src/scenario/load-scenario.ts';
import { simulateScenario } from '../../../src/scenario/simulate.ts';

/** `rounds` rounds of one slow read-only tool call, then an answer. */
function toolRounds(rounds: number, delayMs: number) {
  return parseScenario(
    {
      name: 'inspected in the browser',
      params: { prompt: 'look around the project and say what it does' },
      tools: [{ name: 'Read', readOnly: true, concurrencySafe: true, results: Array.from({ length: rounds }, (_, i) => ({ content: `file ${i + 1}: export const x = ${i};`, delayMs })) }],
      model: [
        ...Array.from({ length: rounds }, (_, i) => ({ content: [{ type: 'tool_use', name: 'Read', input: { file_path: `src/file-${i + 1}.ts` } }] })),
        { content: [{ type: 'text', text: 'It exports three constants.' }] },
      ],
    },
    'inspected.json',
  );
}

async function until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface HeldRun {
  inspector: Inspector;
  /** Lets the run finish (no breakpoints left) and closes the inspector. */
  finish(): Promise<void>;
}

/** Starts the run and returns once it holds before its third model call. */
export async function heldRun(): Promise<HeldRun> {
  const inspector = await startInspector({ keep: true, breakpoints: [{ kind: 'model_call' }] });
  const run = simulateScenario(toolRounds(3, 50), { observers: [inspector.attach('main')] });
  const control = () => inspector.session()?.control;
  for (let hold = 1; hold <= 3; hold += 1) {
    await until(() => control()?.status().mode === 'paused', `hold ${hold} before a model call`);
    if (hold < 3) {
      const held = inspector.session()!.lines.length;
      control()!.resume();
      await until(() => inspector.session()!.lines.length > held && control()!.status().mode !== 'paused', 'the run to go on');
    }
  }
  return {
    inspector,
    async finish() {
      control()?.setBreakpoints([]);
      control()?.resume();
      await run;
      await inspector.close();
    },
  };
}
