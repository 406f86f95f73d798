/**
 * A hostile or broken model: repeated tool_use ids, tools that do not exist, empty replies, cut streams, garbage
 * SSE. None may crash `query()` or make it send a history the API would reject (docs/loop.md §11); fallback result texts
 * say truthfully whether a tool ran.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectInvariants, makeSandbox, runHostile, snapshotOutside, type Sandbox } from './harness.ts';

let sandbox: Sandbox;
let before: Record<string, string>;
beforeEach(() => {
  sandbox = makeSandbox({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
  before = snapshotOutside(sandbox);
});
afterEach(() => sandbox.cleanup());

const done = { content: [{ type: 'text' as const, text: 'done' }], stop_reason: 'end_turn' };
const read = (id: string, file: string) => ({ type: 'tool_use' as const, id, name: 'Read', input: { file_path: file } });

function resultTexts(run: Awaited<ReturnType<typeof runHostile>>): string[] {
  return run.requests.flatMap((r) =>
    r.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type: string; content?: unknown }>) : []).filter((b) => b.type === 'tool_result').map((b) => JSON.stringify(b.content))),
  );
}

describe('malformed model output', () => {
  it('a reply repeating a tool_use id: each call runs under its own id and the next request is well-formed', async () => {
    const run = await runHostile({ sandbox, model: [{ content: [read('toolu_dup', 'a.txt'), read('toolu_dup', 'b.txt')], stop_reason: 'tool_use' }, done] });
    expectInvariants(run, sandbox, before, { maxModelCalls: 2 });
    expect(run.terminal.reason).toBe('completed');
    expect(run.requests).toHaveLength(2);
    const texts = resultTexts(run).join('\n');
    expect(texts).toContain('alpha');
    expect(texts).toContain('beta');
    expect(run.logText).toContain('"toolu_dup_2"');
  });

  it('a tool_use id repeated in a later turn', async () => {
    const run = await runHostile({
      sandbox,
      model: [{ content: [read('toolu_same', 'a.txt')], stop_reason: 'tool_use' }, { content: [read('toolu_same', 'b.txt')], stop_reason: 'tool_use' }, done],
    });
    expectInvariants(run, sandbox, before, { maxModelCalls: 3 });
  });

  it('a tool that does not exist gets an error result saying it did not run', async () => {
    const run = await runHostile({ sandbox, model: [{ content: [{ type: 'tool_use', id: 'toolu_x', name: 'Bash', input: { command: 'rm -rf /' } }], stop_reason: 'tool_use' }, done] });
    expectInvariants(run, sandbox, before, { maxModelCalls: 2 });
    expect(resultTexts(run).join('\n')).toMatch(/Bash/);
  });

  it('an empty reply', async () => {
    const run = await runHostile({ sandbox, model: [{ content: [], stop_reason: 'end_turn' }] });
    expectInvariants(run, sandbox, before, { maxModelCalls: 1 });
  });

  it('a stream cut in the middle of a tool_use block', async () => {
    const run = await runHostile({ sandbox, model: [{ content: [{ type: 'text', text: 'reading' }, read('toolu_cut', 'a.txt')], stop_reason: 'tool_use', cut_after_events: 5 }, done] });
    expectInvariants(run, sandbox, before, { maxModelCalls: 2 });
  });

  it('a stream whose last block never finished', async () => {
    const run = await runHostile({ sandbox, model: [{ content: [read('toolu_t1', 'a.txt'), read('toolu_t2', 'b.txt')], stop_reason: 'tool_use', truncate_last_block: true }, done] });
    expectInvariants(run, sandbox, before, { maxModelCalls: 2 });
  });

  it('garbage SSE and a tool input that is not JSON', async () => {
    const brokenInput = [
      'event: message_start',
      'data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}',
      '',
      'event: content_block_start',
      'data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_bad","name":"Read","input":{}}}',
      '',
      'event: content_block_delta',
      'data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"file_path\\": [[[ not json"}}',
      '',
      'event: content_block_stop',
      'data: {"type":"content_block_stop","index":0}',
      '',
      'event: message_delta',
      'data: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":5}}',
      '',
      'event: message_stop',
      'data: {"type":"message_stop"}',
      '',
      '',
    ].join('\n');
    const run = await runHostile({ sandbox, model: [{ sse: brokenInput }, { sse: 'event: nonsense\ndata: {{{{\n\n' }, done] });
    expectInvariants(run, sandbox, before, { maxModelCalls: 3 });
  });
});
