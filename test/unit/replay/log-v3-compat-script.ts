/**
 * The run behind `fixtures/session-log-v3.jsonl` (`log-v3-compat.test.ts`): four turns of a concurrency-safe tool
 * (their lines held and committed together before each model call, so commit groups span several lines), one
 * result holding an API key (redacted), two tool calls in one reply, then a text reply. Fixed ids and clock.
 *
 * It imports nothing of turnloop statically: `recordCompatRun(root, path)` loads the pieces from a checkout's
 * sources, so the same run can be recorded by another tree. The fixture was recorded by the tree before round 10's
 * recorder changes (ea889c3):
 * `npx tsx -e "import('./test/unit/replay/log-v3-compat-script.ts').then((m) => m.recordCompatRun('<that checkout>', 'session-log-v3.jsonl'))"`.
 */
import { z } from 'zod';

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: { text: string } };

export const COMPAT_REPLIES: Array<{ content: Block[]; stop_reason: string; usage: { input_tokens: number; output_tokens: number } }> = [
  { content: [{ type: 'text', text: 'Echoing.' }, { type: 'tool_use', id: 'toolu_1', name: 'echo', input: { text: 'ping 1' } }], stop_reason: 'tool_use', usage: { input_tokens: 100, output_tokens: 20 } },
  { content: [{ type: 'tool_use', id: 'toolu_2', name: 'echo', input: { text: 'the key is sk-ant-api03-abcdefghijklmnopqrst' } }], stop_reason: 'tool_use', usage: { input_tokens: 200, output_tokens: 20 } },
  {
    content: [
      { type: 'tool_use', id: 'toolu_3', name: 'echo', input: { text: 'ping 3' } },
      { type: 'tool_use', id: 'toolu_4', name: 'echo', input: { text: 'ping 4' } },
    ],
    stop_reason: 'tool_use',
    usage: { input_tokens: 300, output_tokens: 30 },
  },
  { content: [{ type: 'text', text: 'All done.' }], stop_reason: 'end_turn', usage: { input_tokens: 400, output_tokens: 5 } },
];

export interface CompatPieces {
  resolveConfig(overrides: object): object;
  defineTool(definition: object): unknown;
  scriptedModelCaller(replies: unknown[]): unknown;
}

/** The run's config and `runLoopToEnd` options (without `onStep`). */
export function compatRun(pieces: CompatPieces): { config: object; options: Record<string, unknown> } {
  const config = pieces.resolveConfig({ sessionId: 'compat-session' });
  const echo = pieces.defineTool({
    name: 'echo',
    description: 'Answers its text unchanged.',
    inputSchema: z.object({ text: z.string() }),
    isConcurrencySafe: () => true,
    call: (input: { text: string }) => ({ content: input.text }),
  });
  let ids = 0;
  return {
    config,
    options: {
      prompt: 'Echo a few things.',
      config,
      tools: [echo],
      deps: {
        callModel: pieces.scriptedModelCaller(COMPAT_REPLIES),
        newId: () => `id-${++ids}`,
        clock: { now: () => 1_700_000_000_000, sleep: async () => undefined },
      },
    },
  };
}

/** Records the run with the sources of the checkout at `root` to `path` (a new log). */
export async function recordCompatRun(root: string, path: string): Promise<void> {
  const load = (file: string) => import(`${root}/src/${file}`);
  const [{ resolveConfig }, { runLoopToEnd }, { defineTool }, { scriptedModelCaller }, { createSessionRecorder }] = await Promise.all([
    load('config/config.ts'), load('drivers/run-loop.ts'), load('tools/index.ts'), load('replay/scripted-deps.ts'), load('replay/session-recorder.ts'),
  ]);
  const { config, options } = compatRun({ resolveConfig, defineTool, scriptedModelCaller });
  const recorder = createSessionRecorder(path, { config });
  const { terminal } = await runLoopToEnd({ ...options, onStep: recorder });
  recorder.close();
  if (recorder.error) throw recorder.error;
  if (terminal.reason !== 'completed') throw new Error(`the compat run ended with ${terminal.reason}`);
}
