/**
 * `answerOrphans` (src/machine/actions/tool-actions.ts) answers every tool_use of the attempt that has no result yet,
 * in the order of the tool_uses, each with a fresh id, whether it looks the answered ids up in a list (a few) or a
 * Set (more than 8): the same answers and ids either way.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/config.ts';
import { answerOrphans } from '../../src/machine/actions/tool-actions.ts';
import { emptyIteration, openOutbox, toScratchContext } from '../../src/machine/machine-context.ts';
import type { ToolUseBlock } from '../../src/messages/types.ts';
import { initialState } from '../../src/reducer/step.ts';

function orphansOf(total: number, answered: number[]) {
  const config = resolveConfig({});
  const context = toScratchContext(initialState({ messages: [] }, config).state.context, config);
  const toolUses: ToolUseBlock[] = Array.from({ length: total }, (_, i) => ({ type: 'tool_use', id: `call_${i}`, name: 'echo', input: {} }));
  context.iter = { ...emptyIteration(), toolUses, answeredToolUseIds: answered.map((i) => `call_${i}`) };
  const out = openOutbox(context);
  const results = answerOrphans(context, out, 'no result');
  return { context, results, patch: out.patch() };
}

describe('answerOrphans', () => {
  it.each([
    ['a few answered (a list)', 4, [0, 2]],
    ['more than 8 answered (a Set)', 14, [0, 1, 2, 3, 5, 6, 7, 9, 10, 12]],
  ])('%s: one answer per unanswered tool_use, in order, ids in order', (_name, total, answered) => {
    const { context, results, patch } = orphansOf(total, answered);
    const unanswered = Array.from({ length: total }, (_, i) => i).filter((i) => !answered.includes(i));
    expect(results.map((r) => r.sourceToolUseId)).toEqual(unanswered.map((i) => `call_${i}`));
    // Message ids first (one per answer), then one effect id per emit, as before.
    expect(results.map((r) => r.uuid)).toEqual(unanswered.map((_, k) => `${context.runId}:m${context.seq + k + 1}`));
    expect(patch.effects.map((e) => e.type === 'emit' && e.message)).toEqual(results);
    expect(patch.seq).toBe(context.seq + 2 * unanswered.length);
  });

  it('answers nothing when every tool_use has its result', () => {
    const { results, patch } = orphansOf(3, [2, 0, 1]);
    expect(results).toEqual([]);
    expect(patch.effects).toEqual([]);
  });
});
