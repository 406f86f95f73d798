/**
 * What the recorder writes, the readers accept (issue 29, item 4; `src/runtime/recordable-model-output.ts`): hostile
 * model output (tool inputs nested up to 700 levels, non-finite and negative numbers, lone surrogates, `__proto__`
 * keys, negative or overflowing usage) goes through the real loop and the real session recorder into a file; the
 * file is then read as every CLI command reads a log (`readInputText`: UTF-8, depth, size) and replayed, and replay
 * must reach the run's own terminal. Replay a failure with `TURNLOOP_SEED=<seed>`.
 */
import { fc, test } from '@fast-check/vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { readInputText } from '../../src/cli/read-input.ts';
import { runLoopToEnd } from '../../src/drivers/run-loop.ts';
import type { AssistantContentBlock, Usage } from '../../src/messages/types.ts';
import { parseSessionLogText } from '../../src/replay/parse-session-log.ts';
import { replay } from '../../src/replay/replay.ts';
import { scriptedModelCaller, type ScriptedReply } from '../../src/replay/scripted-deps.ts';
import { createSessionRecorder } from '../../src/replay/session-recorder.ts';
import { fixedSeed, scaledRuns } from './settings.ts';

const dir = mkdtempSync(join(tmpdir(), 'turnloop-readback-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const seed = fixedSeed();

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 1e308, Number.MAX_SAFE_INTEGER + 2),
);
const hostileString = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('\ud800', 'a\udfffb', '\u0000', '\u2028'));
const hostileKey = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'constructor', 'toString', ''));
const leaf = fc.oneof(hostileNumber, hostileString, fc.boolean(), fc.constant(null));

/** A JSON-ish value: small and wide, or a chain nested up to 700 levels (around the 256/512 limits). */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(hostileKey, tie('value'), { maxKeys: 3 })),
  })).value,
  fc.tuple(fc.integer({ min: 1, max: 700 }), leaf).map(([depth, end]) => {
    let value: unknown = end;
    for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { k: value } : [value];
    return value;
  }),
);

const hostileCount = fc.oneof(fc.nat(), fc.integer({ min: -1_000_000, max: -1 }), fc.constantFrom(Number.POSITIVE_INFINITY, Number.NaN, 1e308));
const usageArb: fc.Arbitrary<Usage | undefined> = fc.option(fc.record({ input_tokens: hostileCount, output_tokens: hostileCount }), { nil: undefined });

const blockArb: fc.Arbitrary<AssistantContentBlock> = fc.oneof(
  hostileString.map((text) => ({ type: 'text' as const, text })),
  fc.record({ name: fc.constantFrom('Read', 'Nope'), input: fc.dictionary(hostileKey, hostileValue, { maxKeys: 3 }) }).map(({ name, input }) => ({ type: 'tool_use' as const, id: 'toolu_h', name, input })),
);

const replyArb: fc.Arbitrary<ScriptedReply> = fc.record({
  content: fc.array(blockArb, { minLength: 1, maxLength: 3 }),
  stop_reason: fc.constantFrom('end_turn', 'tool_use', null),
  usage: usageArb,
}).map(({ usage, ...reply }) => (usage === undefined ? reply : { ...reply, usage }));

let runs = 0;

describe('hostile model output through the real recorder', () => {
  test.prop([fc.array(replyArb, { minLength: 1, maxLength: 3 })], { numRuns: scaledRuns(60), ...(seed !== undefined ? { seed } : {}) })(
    'the log a run writes is read back by the CLI reader and replays to the run’s terminal',
    async (replies) => {
      const path = join(dir, `run-${runs++}.jsonl`);
      const config = { sessionId: 'readback', limits: { maxModelCalls: 4 } };
      const recorder = createSessionRecorder(path, { config });
      const { terminal } = await runLoopToEnd({ prompt: 'go', config, tools: [], deps: { callModel: scriptedModelCaller(replies) }, onStep: recorder });
      recorder.close();
      expect(recorder.error).toBeNull();
      const text = readInputText(path, dir, { expected: 'a session log (JSON Lines)', format: 'jsonl' });
      const parsed = parseSessionLogText(text, path);
      expect(parsed.truncated).toBeNull();
      expect(replay(parsed).terminal?.reason).toBe(terminal.reason);
    },
  );
});
