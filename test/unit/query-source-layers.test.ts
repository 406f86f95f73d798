/**
 * Which runs the per-message tool-result budget and time-based microcompact apply to, as in the original
 * (Claude Code 2.1.88): the budget only where a replacement state exists (interactive runs and their agents, never
 * the SDK's `querySource: 'sdk'`, `query.ts:369-392`, `QueryEngine.ts:427`); time-based microcompact only on the
 * main thread (`services/compact/microCompact.ts:243-251, 422-431`).
 */
import { describe, expect, it } from 'vitest';
import { assistantText, drive, effectsOf, params, reply, testConfig } from '../helpers/index.ts';

function layersFor(querySource: string): string[] {
  const run = drive(params('hi', { querySource }), testConfig({ features: { toolResultBudget: true, microcompact: true } }), { model: [reply(assistantText('ok'))] });
  return effectsOf(run, 'context_layer').map((e) => e.layer);
}

describe('layers per query source (query.ts:369-392, microCompact.ts:243-251)', () => {
  it('an interactive run gets both', () => {
    expect(layersFor('repl_main_thread')).toEqual(['tool_result_budget', 'microcompact']);
    expect(layersFor('repl_main_thread:outputStyle:custom')).toEqual(['tool_result_budget', 'microcompact']);
  });

  it('an SDK run gets neither', () => {
    expect(layersFor('sdk')).toEqual([]);
  });

  it('a subagent gets the budget but not the time-based microcompact', () => {
    expect(layersFor('agent:explore')).toEqual(['tool_result_budget']);
  });
});
