/**
 * Scenario format additions that let the original's behaviours be scripted (issue 33 item 10):
 * - an abort after the k-th streamed block of a reply, while tools that reply asked for already run (streaming tool
 *   execution starts a tool as its block finishes: Claude Code 2.1.88 `query.ts:826-862`,
 *   `services/tools/StreamingToolExecutor.ts`); a block after the cut never becomes a message;
 * - per-tool result-size thresholds, by default the ones Claude Code's tools declare (`BashTool.tsx:424` 30,000,
 *   `GrepTool.ts:164` 20,000, `FileReadTool.ts:342` unbounded; persistence threshold min(size, 50,000),
 *   `utils/toolResultStorage.ts:55-78`).
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load-scenario.ts';
import { simulateScenario } from '../../src/scenario/simulate.ts';
import { CUT_AFTER_BLOCK_2, CUT_SECOND_REPLY, resultSizeScenario } from '../helpers/fidelity-scenarios.ts';

describe('scenario: abort after the k-th streamed block (query.ts:826-862)', () => {
  it('cuts the reply after its 2nd block: the tool it asked for had started and is answered; the 3rd block never arrives', async () => {
    const scenario = parseScenario(CUT_AFTER_BLOCK_2, 'inline');
    const result = await simulateScenario(scenario);
    expect(result.terminal.reason).toBe('aborted_streaming');
    const blocks = result.emitted.flatMap((m) => (m.type === 'assistant' ? m.message.content : []));
    expect(blocks.map((b) => (b.type === 'tool_use' ? b.id : b.type))).toEqual(['text', 'toolu_a']);
    // toolu_a started while the reply streamed (the tool saw the call) and got exactly one result.
    expect(result.toolCalls.map((c) => c.id)).toEqual(['toolu_a']);
    const answered = result.emitted.flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content : [])).filter((b) => b.type === 'tool_result');
    expect(answered.map((b) => (b as { tool_use_id: string }).tool_use_id)).toEqual(['toolu_a']);
  });

  it('afterBlock counts the blocks of the named model call only', async () => {
    const scenario = parseScenario(CUT_SECOND_REPLY, 'inline');
    const result = await simulateScenario(scenario);
    expect(result.terminal.reason).toBe('aborted_streaming');
    const texts = result.emitted.flatMap((m) => (m.type === 'assistant' ? m.message.content : [])).filter((b) => b.type === 'text');
    expect(texts).toEqual([{ type: 'text', text: 'one' }]);
  });
});

describe('scenario: per-tool result-size thresholds (toolResultStorage.ts:55-78)', () => {
  /** One reply calling `name` once with a result of `chars` characters, then a final answer. */
  async function resultSent(name: string, chars: number, maxResultSizeChars?: number | 'unbounded') {
    const scenario = parseScenario(resultSizeScenario(name, chars, maxResultSizeChars), 'inline');
    const result = await simulateScenario(scenario);
    const second = result.requests[1] as { messages: Array<{ content: unknown }> };
    const block = (second.messages.at(-1)!.content as Array<{ type: string; content: unknown }>).find((b) => b.type === 'tool_result')!;
    const content = block.content;
    return typeof content === 'string' ? content.length : (content as Array<{ text: string }>).reduce((n, b) => n + b.text.length, 0);
  }

  it('Bash: kept at 30,000 characters, replaced above (BashTool.tsx:424)', async () => {
    expect(await resultSent('Bash', 30_000)).toBe(30_000);
    expect(await resultSent('Bash', 30_001)).toBeLessThan(5_000);
  });

  it('Grep: kept at 20,000, replaced above (GrepTool.ts:164)', async () => {
    expect(await resultSent('Grep', 20_000)).toBe(20_000);
    expect(await resultSent('Grep', 20_001)).toBeLessThan(5_000);
  });

  it('Read is exempt however long (FileReadTool.ts:342); another tool is capped at 50,000', async () => {
    expect(await resultSent('Read', 60_000)).toBe(60_000);
    expect(await resultSent('Other', 50_000)).toBe(50_000);
    expect(await resultSent('Other', 50_001)).toBeLessThan(5_000);
  });

  it('a scenario tool can declare its own size, or none', async () => {
    expect(await resultSent('Other', 10_001, 10_000)).toBeLessThan(5_000);
    expect(await resultSent('Other', 70_000, 'unbounded')).toBe(70_000);
  });
});
