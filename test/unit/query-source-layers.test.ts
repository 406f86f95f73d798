/**
 * What the query source changes in the context pipeline, as in the original (Claude Code 2.1.88):
 * - the per-message tool-result budget needs a replacement state that only interactive runs and their agents have,
 *   never the SDK's `querySource: 'sdk'` (`query.ts:369-392`, `QueryEngine.ts:427`); the per-tool limits, applied
 *   when a tool answers (`utils/toolResultStorage.ts:55-78`), hold everywhere;
 * - time-based microcompact runs on the main thread only (`services/compact/microCompact.ts:243-251, 422-431`).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/config.ts';
import { createContextLayerRunner } from '../../src/effects/context/default-context-layers.ts';
import { createMemoryToolResultStore } from '../../src/effects/context/result-store.ts';
import type { Message } from '../../src/messages/types.ts';
import { assistantText, assistantToolUse, drive, effectsOf, params, reply, testConfig, toolResultMessage, userText } from '../helpers/index.ts';

function layersFor(querySource: string): string[] {
  const run = drive(params('hi', { querySource }), testConfig({ features: { toolResultBudget: true, microcompact: true } }), { model: [reply(assistantText('ok'))] });
  return effectsOf(run, 'context_layer').map((e) => e.layer);
}

/** Five fresh results of 45,000 characters: 225,000 in one message, over the 200,000 budget, each under 50,000. */
function overBudget(): Message[] {
  const ids = ['a', 'b', 'c', 'd', 'e'];
  return [
    userText('go', 'u0'),
    ...ids.map((id) => assistantToolUse(id, 'Bash', {}, { id: 'r1', uuid: `m-${id}` })),
    ...ids.map((id) => toolResultMessage(id, id.repeat(45_000))),
  ];
}

async function replacedFor(querySource: string): Promise<number> {
  const runner = createContextLayerRunner({ config: DEFAULT_CONFIG, store: createMemoryToolResultStore(), querySource });
  const outcome = await runner({ layer: 'tool_result_budget', messages: overBudget(), tokenCount: 0, now: 0, newId: () => 'x' });
  return outcome.edits.length;
}

describe('context layers per query source (query.ts:369-392, microCompact.ts:243-251)', () => {
  it('time-based microcompact: the main thread only', () => {
    expect(layersFor('repl_main_thread')).toEqual(['tool_result_budget', 'microcompact']);
    expect(layersFor('repl_main_thread:outputStyle:custom')).toEqual(['tool_result_budget', 'microcompact']);
    expect(layersFor('sdk')).toEqual(['tool_result_budget']);
    expect(layersFor('agent:explore')).toEqual(['tool_result_budget']);
  });

  it('time-based microcompact is on by default for the main thread (Extension timeBasedMicrocompactOn)', () => {
    const run = drive(params('hi', { querySource: 'repl_main_thread' }), testConfig(), { model: [reply(assistantText('ok'))] });
    expect(effectsOf(run, 'context_layer').map((e) => e.layer)).toContain('microcompact');
  });

  it('per-message budget: interactive runs and agents, never an SDK run', async () => {
    expect(await replacedFor('repl_main_thread')).toBe(1);
    expect(await replacedFor('agent:explore')).toBe(1);
    expect(await replacedFor('sdk')).toBe(0);
  });
});
