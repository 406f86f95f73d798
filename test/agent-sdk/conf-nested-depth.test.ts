/**
 * How deep subagents nest (issue #38), side by side (programs/conf-nested-depth.ts): claude 2.1.334 offers `Agent`
 * to subagents of depth 1 and 2, not to one of depth 3 (its call to Agent is refused as a tool it does not have),
 * and tells each task's progress before each of its replies that calls a tool, a nested task's too; with
 * `forwardSubagentText`, every subagent's own messages (the nested ones' in their own calls), each task's progress
 * after its reply.
 */
import { describe, expect, it } from 'vitest';
import { ENGINES } from './harness/engines.ts';
import { bothRuns } from './harness/both-runs.ts';
import { confNestedDepth, confNestedForwarded } from './programs/conf-nested-depth.ts';

describe(confNestedDepth.name, () => {
  const run = bothRuns(confNestedDepth);

  it('a subagent of depth 3 is not offered Agent, and every task tells its progress, on both', () => {
    for (const engine of ENGINES) {
      expect(run(engine).error, engine).toBeUndefined();
      const observed = run(engine).observed;
      // The main thread, depths 1, 2, 3, 3 again after its refused call, then 2, 1 and the main thread answering.
      expect(observed.offersAgent, engine).toEqual([true, true, true, false, false, true, true, true]);
      expect(observed.started, engine).toEqual([['toolu_d1', 1], ['toolu_d2', 2], ['toolu_d3', 3]]);
      const progress = run(engine).messages.filter((m) => m.type === 'system' && (m as { subtype?: string }).subtype === 'task_progress') as Array<Record<string, unknown>>;
      expect(progress.map((m) => [m.tool_use_id, m.description, m.last_tool_name]), engine).toEqual([['toolu_d1', 'Delegate toolu_d2', 'Agent'], ['toolu_d2', 'Delegate toolu_d3', 'Agent'], ['toolu_d3', 'Delegate toolu_d4', 'Agent']]);
    }
    expect(run('turnloop').shapes).toEqual(run('claude').shapes);
  });
});

describe(confNestedForwarded.name, () => {
  const run = bothRuns(confNestedForwarded);

  it('every subagent\'s own messages are shown in its own call, the same on both', () => {
    for (const engine of ENGINES) expect(run(engine).error, engine).toBeUndefined();
    const inCall = (engine: 'claude' | 'turnloop') => run(engine).messages.filter((m) => (m as { parent_tool_use_id?: unknown }).parent_tool_use_id).map((m) => `${m.type} ${String((m as { parent_tool_use_id?: unknown }).parent_tool_use_id)}`);
    expect(inCall('turnloop')).toEqual(inCall('claude'));
    expect(new Set(inCall('claude').map((line) => line.split(' ')[1]))).toEqual(new Set(['toolu_d1', 'toolu_d2', 'toolu_d3']));
    expect(run('turnloop').shapes).toEqual(run('claude').shapes);
  });
});
