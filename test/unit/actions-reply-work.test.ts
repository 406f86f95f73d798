/**
 * What the actions of every reply and of a run's end no longer do (docs/benchmarks.md "Round 15: less work per turn"):
 * they run on every turn, mostly before V8 optimizes them, where a `filter` callback, an iterator spread, a `slice`
 * or a spread copy that gains a member costs more than the rest of the action. Their results are pinned by the
 * transition and property tests; these pin the work.
 */
import { setFlagsFromString } from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordAssistantMessage, recordUsage } from '../../src/machine/actions/sampling-actions.ts';
import { terminate } from '../../src/machine/actions/terminal-actions.ts';
import { recordToolResult } from '../../src/machine/actions/tool-actions.ts';
import { createInitialContext, toMachineContext } from '../../src/machine/context-conversions.ts';
import type { MachineContext } from '../../src/machine/machine-context.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import type { Terminal } from '../../src/data/outcomes.ts';
import { assistantToolUse, params, testConfig } from '../helpers/index.ts';

setFlagsFromString('--allow-natives-syntax');
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the only way to reach a V8 intrinsic from a test
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

function context(): MachineContext {
  const config = testConfig();
  return toMachineContext(createInitialContext(params(), config), config);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the actions of a reply', () => {
  it('record a reply without a filter callback', () => {
    const c = context();
    const event: LoopEvent = { type: 'model_message', message: assistantToolUse('t1', 'Read') };
    const filter = vi.spyOn(Array.prototype, 'filter');
    const result = recordAssistantMessage(c, event, undefined);
    expect(filter).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    expect(result.iter?.assistantMessages).toEqual([(event as { message: unknown }).message]);
    expect(result.iter?.toolUses.map((toolUse) => toolUse.id)).toEqual(['t1']);
  });

  it('count a one-block reply\'s usage without slicing its messages (0 estimated after the first block)', () => {
    const c = context();
    c.iter = { ...c.iter, assistantMessages: [assistantToolUse('t1', 'Read')] };
    const slice = vi.spyOn(Array.prototype, 'slice');
    const result = recordUsage(c, { type: 'model_done', usage: { input_tokens: 100, output_tokens: 5 }, stopReason: 'tool_use' }, undefined);
    expect(slice).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    expect(result.tokens).toEqual({ reported: 105, estimatedSince: 0 });
  });
});

describe('the action of a tool result', () => {
  const result = (extra?: unknown[]): LoopEvent =>
    ({
      type: 'tool_result',
      toolUseId: 't1',
      message: { type: 'user', uuid: 'r1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] }, sourceToolUseId: 't1' },
      ...(extra ? { extra } : {}),
    }) as LoopEvent;

  it('records a result without extra messages without a filter callback', () => {
    const filter = vi.spyOn(Array.prototype, 'filter');
    const patch = recordToolResult(context(), result(), undefined);
    expect(filter).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    expect(patch.iter?.toolResults.map((m) => m.uuid)).toEqual(['r1']);
    expect(patch.iter?.answeredToolUseIds).toEqual(['t1']);
    expect(patch.effects?.map((e) => e.type)).toEqual(['emit']);
  });

  it('emits extra messages first and carries only the attachments among them after the result', () => {
    const attachment = { type: 'attachment', uuid: 'a1', attachment: { type: 'hook_stopped_continuation', message: 'x', toolUseId: 't1' } };
    const note = { type: 'system', uuid: 's1', subtype: 'informational', content: 'note' };
    const c = context();
    c.iter = { ...c.iter, toolResults: [{ type: 'user', uuid: 'r0', message: { role: 'user', content: 'earlier' } }] as never, answeredToolUseIds: ['t0'] };
    const patch = recordToolResult(c, result([note, attachment]), undefined);
    expect(patch.effects?.map((e) => (e as { message: { uuid: string } }).message.uuid)).toEqual(['s1', 'a1', 'r1']);
    expect(patch.iter?.toolResults.map((m) => m.uuid)).toEqual(['r0', 'r1', 'a1']);
    expect(patch.iter?.answeredToolUseIds).toEqual(['t0', 't1']);
  });
});

describe('the action that ends a run', () => {
  it('gives every patch and terminal it makes from no earlier one a single hidden class, with the reason alone', () => {
    const patches: object[] = [];
    const terminals: Terminal[] = [];
    for (let i = 0; i < 50; i++) {
      const patch = terminate(context(), { type: 'tools_finished' }, { reason: 'completed' });
      patches.push(patch);
      terminals.push(patch.terminal as Terminal);
    }
    expect(terminals[0]).toEqual({ reason: 'completed' });
    expect(terminals.filter((t) => !haveSameMap(t, terminals[0]))).toEqual([]);
    expect(patches.filter((p) => !haveSameMap(p, patches[0]))).toEqual([]);
  });

  it('keeps an earlier terminal\'s members in their order, the reason last or in its place', () => {
    const c = context();
    c.terminal = { reason: 'completed', apiError: { kind: 'other', message: 'x' } } as unknown as Terminal;
    const result = terminate(c, { type: 'tools_finished' }, { reason: 'model_error' });
    expect(Object.keys(result.terminal as object)).toEqual(['reason', 'apiError']);
    expect(result.terminal).toEqual({ reason: 'model_error', apiError: { kind: 'other', message: 'x' } });
    expect(result.effects?.[0]).toMatchObject({ type: 'terminated', terminal: result.terminal });
    expect(result.seq).toBe(c.seq + 1);
  });
});
