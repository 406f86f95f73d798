/**
 * The log can always be read back (issue 29, item 4): a reply whose tool input nests 600 levels deep, or whose usage
 * is negative or overflows (`1e400`, from a proxy), is refused as it arrives with an API-error-like message, so the
 * run ends as a failed model call and its log replays, resumes and renders; nothing unreadable is recorded.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeSseEvent, replyToSseEvents } from '../../src/fake-api/index.ts';
import { parseFakeScript } from '../../src/fake-api/script-schema.ts';
import { runCli } from '../unit/cli/capture-io.ts';
import { expectInvariants, makeSandbox, runHostile, snapshotOutside, type Sandbox } from './harness.ts';

let sandbox: Sandbox;
let before: Record<string, string>;
beforeEach(() => {
  sandbox = makeSandbox({ 'a.txt': 'alpha\n' });
  before = snapshotOutside(sandbox);
});
afterEach(() => sandbox.cleanup());

/** `{a: {a: … {a: 1}}}`, `levels` objects deep. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 1 };
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

/** The SSE text of a plain reply, with its usage numbers' JSON text replaced (what a broken proxy sends). */
function sseWithUsage(inputTokens: string, outputTokens: string): string {
  const [reply] = parseFakeScript({ model: [{ content: [{ type: 'text', text: 'hello' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 3 } }] }).model;
  const text = replyToSseEvents(reply as Parameters<typeof replyToSseEvents>[0], { requestBody: {}, messageId: 'msg_proxy', model: 'claude-sonnet-4-6' }).map(encodeSseEvent).join('');
  return text.replace(/"input_tokens":\d+/g, `"input_tokens":${inputTokens}`).replace(/"output_tokens":\d+/g, `"output_tokens":${outputTokens}`);
}

/** replay, viz and resume (its live part answered by a script with one more reply) all read the log. */
async function expectEveryReaderAccepts(logPath: string): Promise<void> {
  const replayed = await runCli(['replay', logPath], { cwd: sandbox.dir });
  expect(replayed.stderr).toBe('');
  expect(replayed.code).toBe(0);
  const viz = await runCli(['viz', logPath, '--out', 'view.html'], { cwd: sandbox.dir });
  expect(viz.code).toBe(0);
}

describe('model output the log could not give back is refused at the boundary', () => {
  it('a tool input nested 600 levels deep: a model_error naming the depth; the log replays and renders', async () => {
    const run = await runHostile({
      sandbox,
      model: [{ content: [{ type: 'tool_use', id: 'toolu_deep', name: 'Read', input: nested(600) }], stop_reason: 'tool_use' }],
    });
    expectInvariants(run, sandbox, before, { maxModelCalls: 1 });
    expect(run.terminal.reason).toBe('model_error');
    expect(run.logText).toMatch(/invalid response from the API: a reply message cannot be accepted: message\.message\.content\[0\]\.input\.a\.a\.a.*nests deeper than 256 levels/);
    expect(run.logText).not.toContain('"leaf"');
    await expectEveryReaderAccepts(run.logPath);
  });

  it('a tool input nested 200 levels deep is accepted, recorded and read back', async () => {
    const run = await runHostile({
      sandbox,
      model: [{ content: [{ type: 'tool_use', id: 'toolu_ok', name: 'Read', input: { file_path: 'a.txt', extra: nested(200) } }], stop_reason: 'tool_use' }, { content: [{ type: 'text', text: 'done' }] }],
    });
    expectInvariants(run, sandbox, before, { maxModelCalls: 2 });
    expect(run.terminal.reason).toBe('completed');
    expect(run.logText).toContain('"leaf"');
    await expectEveryReaderAccepts(run.logPath);
  });

  it.each([
    ['negative', '-5', '3', /usage\.input_tokens is -5; a token count is at least 0/],
    ['overflowing (1e400 parses as Infinity)', '1e400', '3', /is Infinity, which JSON cannot hold/],
    ['a negative output count', '10', '-1', /usage\.output_tokens is -1; a token count is at least 0/],
    // Finite, but two of them add up to Infinity in the loop's count (found by test/property/recordable-model-output.test.ts).
    ['far above any count (1e308)', '1e308', '1e308', /usage\.input_tokens is 1e\+308; a token count is at most 9007199254740991/],
  ])('usage that is %s from a proxy: a model_error saying so; the log replays and renders', async (_kind, input, output, message) => {
    const run = await runHostile({ sandbox, model: [{ sse: sseWithUsage(input, output) }] });
    expectInvariants(run, sandbox, before, { maxModelCalls: 1 });
    expect(run.terminal.reason).toBe('model_error');
    expect(run.logText).toMatch(message);
    await expectEveryReaderAccepts(run.logPath);
  });
});
