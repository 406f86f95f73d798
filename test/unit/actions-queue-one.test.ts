/**
 * The actions that queue one effect return it through `queueOne` (src/machine/queue-one.ts), not an outbox
 * (docs/benchmarks.md "Round 18: core"): the same patch, effect and id as `openOutbox(context).push(effect)` gave,
 * in a fold that keeps effects and in one that keeps only emitted messages. And a tool round whose tool_uses all
 * have their answers changes nothing at `answerOrphanToolUses`.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/config.ts';
import { createInitialContext } from '../../src/machine/context-conversions.ts';
import { openOutbox, toScratchContext, UNCHANGED, type EffectDraft, type MachineContext } from '../../src/machine/machine-context.ts';
import { queueOne } from '../../src/machine/queue-one.ts';
import { callModel, recordAssistantMessage, runPostSamplingHooks } from '../../src/machine/actions/sampling-actions.ts';
import { requestAutocompact, requestContextLayer, startIteration } from '../../src/machine/actions/pipeline-actions.ts';
import { answerOrphanToolUses, finishStreamingTools, recordToolResult, requestAttachments, runToolBatches } from '../../src/machine/actions/tool-actions.ts';
import { terminate } from '../../src/machine/actions/terminal-actions.ts';
import type { UserMessage } from '../../src/messages/types.ts';

const config = resolveConfig({ sessionId: 'queue-one' });

function contextAt(seq: number, emitsOnly: boolean | null): MachineContext {
  const context = toScratchContext(createInitialContext({ messages: [], prompt: 'hi' } as never, config), config, emitsOnly === null ? null : { array: null, emitsOnly });
  context.seq = seq;
  return context;
}

const result: UserMessage = { type: 'user', uuid: 'r1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] }, sourceToolUseId: 't1' };
const drafts: Array<() => EffectDraft> = [
  () => ({ type: 'finish_tools' }),
  () => ({ type: 'emit', message: result }),
  () => ({ type: 'collect_attachments', messages: [] }),
];

describe('queueOne', () => {
  for (const emitsOnly of [null, false, true]) {
    for (const draft of drafts) {
      it(`gives what an outbox gives: ${draft().type}, emitsOnly ${emitsOnly}`, () => {
        const context = contextAt(41, emitsOnly);
        const viaOutbox = openOutbox(context).push(draft()).patch();
        expect(queueOne(context, draft())).toStrictEqual(viaOutbox);
        const withFields = openOutbox(context).push(draft()).patchWith({ turnCount: 9, modelCalls: 3 });
        const queued = queueOne(context, draft(), { turnCount: 9, modelCalls: 3 });
        expect(queued).toStrictEqual(withFields);
        expect(Object.keys(queued)).toEqual(Object.keys(withFields));
        expect(queued.seq).toBe(42);
      });
    }
  }

  it('writes the id last, as push does (the effect keeps its members in order)', () => {
    const context = contextAt(6, null);
    const { effects } = queueOne(context, { type: 'context_layer', layer: 'snip', messages: [], tokenCount: 0 });
    expect(Object.keys(effects[0])).toEqual(['type', 'layer', 'messages', 'tokenCount', 'id']);
    expect(effects[0].id).toBe('queue-one:e7');
  });
});

describe('the actions that queue one effect', () => {
  const single = { startIteration, requestContextLayer, requestAutocompact, callModel, runPostSamplingHooks, runToolBatches, finishStreamingTools, requestAttachments, terminate };

  for (const [name, action] of Object.entries(single)) {
    it(`open no outbox: ${name}`, () => {
      expect(action.toString()).not.toMatch(/openOutbox/);
    });
  }

  it('recordToolResult gives the same patch for a result without extra messages (guard)', () => {
    const context = contextAt(3, null);
    const patch = recordToolResult(context, { type: 'tool_result', toolUseId: 't1', message: result }, undefined);
    expect(patch.effects).toEqual([{ type: 'emit', message: result, id: 'queue-one:e4' }]);
    expect(patch.seq).toBe(4);
    expect(Object.keys(patch)).toEqual(['toolUseContext', 'iter', 'seq', 'effects']);
  });

  it('answerOrphanToolUses changes nothing when every tool_use has its answer', () => {
    const context = contextAt(5, null);
    context.iter = { ...context.iter, toolUses: [{ type: 'tool_use', id: 't1', name: 'echo', input: {} }], answeredToolUseIds: ['t1'] };
    expect(answerOrphanToolUses(context, { type: 'tools_finished' }, undefined)).toBe(UNCHANGED);
  });

  it('answerOrphanToolUses still answers an orphan (guard)', () => {
    const context = contextAt(5, null);
    context.iter = { ...context.iter, toolUses: [{ type: 'tool_use', id: 't1', name: 'echo', input: {} }, { type: 'tool_use', id: 't2', name: 'echo', input: {} }], answeredToolUseIds: ['t1'] };
    const patch = answerOrphanToolUses(context, { type: 'tools_finished' }, undefined);
    expect(patch.seq).toBe(7);
    expect(patch.effects?.map((e) => e.type)).toEqual(['emit']);
    expect(patch.iter?.answeredToolUseIds).toEqual(['t1', 't2']);
  });
});

describe('the outbox\'s emits', () => {
  it('walk the messages by index (no iterator) and recordAssistantMessage pushes its one emit', () => {
    const original = Array.prototype[Symbol.iterator];
    let iterators = 0;
    Array.prototype[Symbol.iterator] = function (this: unknown[]) {
      // Only the emitted messages' list counts (the test runner makes iterators of its own).
      if (this.length === 2 && this[0] === result && this[1] === result) iterators += 1;
      return original.call(this);
    } as typeof original;
    const context = contextAt(1, null);
    let patch;
    try {
      patch = openOutbox(context).emit(result, result).patch();
    } finally {
      Array.prototype[Symbol.iterator] = original;
    }
    expect(iterators).toBe(0);
    expect(patch.effects.map((e) => e.id)).toEqual(['queue-one:e2', 'queue-one:e3']);
    expect(recordAssistantMessage.toString()).not.toMatch(/\.emit\(/);
  });
});
