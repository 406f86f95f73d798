/**
 * Scripted tools named Bash, end to end through a scenario (issue 39 item 1): a failed Bash beside another call.
 * The original cancels the sibling only in its streaming executor (StreamingToolExecutor.ts:354-363); its default
 * path, runTools, runs every call whatever the others did.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../src/scenario/load-scenario.ts';
import { simulateScenario } from '../../../src/scenario/simulate.ts';

async function bashFailsBesideRead(streamingToolExecution: boolean) {
  const scenario = parseScenario(
    {
      name: `a failed Bash beside a Read, streaming executor ${streamingToolExecution ? 'on' : 'off'}`,
      params: { prompt: 'go' },
      config: { features: { streamingToolExecution } },
      model: [
        {
          content: [
            { type: 'tool_use', id: 'toolu_bash', name: 'Bash', input: {} },
            { type: 'tool_use', id: 'toolu_read', name: 'Read', input: {} },
          ],
        },
        { content: [{ type: 'text', text: 'done' }] },
      ],
      tools: [
        { name: 'Bash', results: [{ content: 'exit 3', isError: true }] },
        { name: 'Read', concurrencySafe: true, readOnly: true, results: [{ content: 'the notes' }] },
      ],
    },
    'inline',
  );
  const result = await simulateScenario(scenario);
  const results = result.emitted.flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content : [])).filter((b) => b.type === 'tool_result');
  return { result, results: Object.fromEntries(results.map((b) => [(b as { tool_use_id: string }).tool_use_id, b])) };
}

describe('scripted tools named Bash: a failed Bash and its sibling', () => {
  it('without the streaming executor the sibling runs and its result goes back (the original runTools)', async () => {
    const { result, results } = await bashFailsBesideRead(false);
    expect(result.toolCalls.map((c) => c.name)).toEqual(['Bash', 'Read']);
    expect(results.toolu_bash).toMatchObject({ is_error: true });
    expect(results.toolu_read).toMatchObject({ content: 'the notes' });
    expect(results.toolu_read).not.toHaveProperty('is_error', true);
    expect(result.terminal.reason).toBe('completed');
  });

  it('with the streaming executor the sibling not yet run is cancelled, with one result saying so', async () => {
    const { result, results } = await bashFailsBesideRead(true);
    expect(result.toolCalls.map((c) => c.name)).toEqual(['Bash']);
    expect(results.toolu_read).toMatchObject({ is_error: true });
    expect(JSON.stringify(results.toolu_read)).toMatch(/sibling tool call \(Bash, toolu_bash\) failed/);
    expect(result.terminal.reason).toBe('completed');
  });
});
