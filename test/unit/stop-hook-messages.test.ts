/**
 * What the stop hooks show, end to end through the real interpreter (docs/loop.md §4.9.4, as the original's stop-hook
 * handling): a hook that prevents continuation yields the `hook_stopped_continuation` attachment, and hooks that
 * ran are summed up in one `stop_hook_summary` system message; an abort before any hook answered shows neither.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load-scenario.ts';
import { simulateScenario } from '../../src/scenario/simulate.ts';
import { REPO_ROOT } from './cli/capture-io.ts';

const example = (name: string) => loadScenario(join(REPO_ROOT, 'examples/scenarios', `${name}.json`), REPO_ROOT);

describe('stop-hook messages', () => {
  it('a preventing hook: the attachment with its reason, then the summary, and the run ends stop_hook_prevented', async () => {
    const result = await simulateScenario(example('stop-hook-prevented'));
    expect(result.terminal).toEqual({ reason: 'stop_hook_prevented', stopReason: 'deployment freeze in effect' });
    const tail = result.emitted.slice(-2);
    expect(tail[0]).toMatchObject({ type: 'attachment', attachment: { type: 'hook_stopped_continuation', message: 'deployment freeze in effect', hookName: 'Stop' } });
    expect(tail[1]).toMatchObject({ type: 'system', subtype: 'stop_hook_summary', data: { hookCount: 1, preventedContinuation: true } });
  });

  it('a blocking hook: its feedback message, then the summary, then the next request', async () => {
    const result = await simulateScenario(example('stop-hook-blocking'));
    const summaries = result.emitted.filter((m) => m.type === 'system' && m.subtype === 'stop_hook_summary');
    expect(summaries.length).toBe(result.stopHookCalls);
    const first = result.emitted.findIndex((m) => m.type === 'system' && m.subtype === 'stop_hook_summary');
    expect(result.emitted[first - 1]).toMatchObject({ type: 'user', isMeta: true });
  });

  it('an abort before any hook answered: no attachment, no summary, no interrupted message', async () => {
    const result = await simulateScenario(example('stop-hook-aborted'));
    expect(result.terminal).toEqual({ reason: 'completed' });
    expect(result.emitted.filter((m) => m.type !== 'assistant')).toEqual([]);
  });
});
