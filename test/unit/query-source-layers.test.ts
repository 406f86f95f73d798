/**
 * What the query source changes in the context pipeline, as in the original (Claude Code 2.1.88):
 * - the per-message tool-result budget needs a replacement state that only interactive runs and their agents have,
 *   never the SDK's `querySource: 'sdk'` (`query.ts:369-392`, `QueryEngine.ts:427`); the per-tool limits, applied
 *   when a tool answers (`utils/toolResultStorage.ts:55-78`), hold everywhere;
 * - time-based microcompact runs on the main thread only (`services/compact/microCompact.ts:243-251, 422-431`);
 *   the chart still asks for the layer (session logs recorded before the rule replay unchanged), its runner clears
 *   nothing elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, resolveConfig } from '../../src/config/config.ts';
import { createContextLayerRunner } from '../../src/context/default-context-layers.ts';
import { createMemoryToolResultStore } from '../../src/context/result-store.ts';
import type { Message } from '../../src/messages/types.ts';
import { assistantToolUse, toolResultMessage, userText } from '../helpers/index.ts';

/** Eight Read rounds, the last reply two hours old: past the idle gap, three results to clear. */
function idleHistory(): Message[] {
  const messages: Message[] = [userText('go', 'u0')];
  for (let i = 1; i <= 8; i++) {
    messages.push(assistantToolUse(`t${i}`, 'Read', {}, { id: `r${i}`, uuid: `m${i}` }));
    messages.push(toolResultMessage(`t${i}`, 'x'.repeat(800)));
  }
  return messages;
}

async function clearedFor(querySource: string | undefined, config = DEFAULT_CONFIG): Promise<number> {
  const runner = createContextLayerRunner({ config, store: createMemoryToolResultStore(), lastAssistantAt: () => 0, ...(querySource ? { querySource } : {}) });
  const outcome = await runner({ layer: 'microcompact', messages: idleHistory(), tokenCount: 0, now: 2 * 3_600_000, newId: () => 'x' });
  return outcome.edits.length;
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
  it('time-based microcompact clears on the main thread only', async () => {
    expect(await clearedFor('repl_main_thread')).toBe(3);
    expect(await clearedFor('repl_main_thread:outputStyle:custom')).toBe(3);
    expect(await clearedFor('sdk')).toBe(0);
    expect(await clearedFor('agent:explore')).toBe(0);
  });

  it('time-based microcompact is on by default for the main thread (Extension timeBasedMicrocompactOn)', async () => {
    expect(DEFAULT_CONFIG.features.microcompact).toBe(true);
    expect(await clearedFor('repl_main_thread')).toBe(3);
    expect(await clearedFor('repl_main_thread', resolveConfig({ features: { microcompact: false } }))).toBe(0);
  });

  it('per-message budget: interactive runs and agents, never an SDK run', async () => {
    expect(await replacedFor('repl_main_thread')).toBe(1);
    expect(await replacedFor('agent:explore')).toBe(1);
    expect(await replacedFor('sdk')).toBe(0);
  });
});
