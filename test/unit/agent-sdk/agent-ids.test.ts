/** A subagent's id in an SDK session: claude 2.1.334's form, from the session's id source, one id per call everywhere. */
import { describe, expect, it } from 'vitest';
import { isAgentId, randomAgentIds } from '../../../src/agent-sdk/agent-ids.ts';
import { SessionTasks } from '../../../src/agent-sdk/session-tasks.ts';
import type { JsonObject } from '../../../src/agent-sdk/json-lines.ts';

describe('agent ids', () => {
  it("random ids have claude's form: a and 16 hex digits, a new one each time", () => {
    const ids = Array.from({ length: 20 }, () => randomAgentIds());
    for (const id of ids) expect(isAgentId(id), id).toBe(true);
    expect(new Set(ids).size).toBe(20);
    expect(isAgentId('toolu_01')).toBe(false);
  });

  it("the session's tasks take ids from the source given: one per call, the same in every task message and the launch text", () => {
    const written: JsonObject[] = [];
    let n = 0;
    const tasks = new SessionTasks({ write: (m) => written.push(m), sessionId: 's', outputFile: () => undefined, newAgentId: () => `a${String(++n).padStart(16, '0')}` });
    const call = { toolUseId: 'toolu_1', description: 'Look', subagentType: 'general-purpose', prompt: 'look' };
    tasks.describe(call, { background: true });
    tasks.describe(call, { background: true });
    expect(tasks.agentIdOf('toolu_1')).toBe('a0000000000000001');
    expect(tasks.agentIdOf('toolu_unknown')).toBe('toolu_unknown');
    const text = tasks.launch({ toolUseId: 'toolu_1', description: 'Look', result: new Promise(() => undefined) });
    expect(text).toContain('agentId: a0000000000000001 (internal ID');
    expect(written.map((m) => m.subtype)).toEqual(['background_tasks_changed', 'task_started']);
    expect((written[0]!.tasks as JsonObject[])[0]!.task_id).toBe('a0000000000000001');
    expect(written[1]).toMatchObject({ task_id: 'a0000000000000001', tool_use_id: 'toolu_1' });
    expect(tasks.backgroundTasks()).toEqual([{ id: 'a0000000000000001', type: 'subagent', status: 'running', description: 'Look', agent_type: 'general-purpose' }]);
    expect(tasks.toolResponse('toolu_1')).toMatchObject({ status: 'async_launched', agentId: 'a0000000000000001' });
  });
});
