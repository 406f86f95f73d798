/**
 * The subagent's id and the hook inputs around it, side by side on both engines (issue #38, programs/parity-agent-ids.ts):
 * one id per subagent in claude's form everywhere it appears, SubagentStop's `background_tasks` with a background
 * subagent running, the Agent call's PostToolUse `tool_response`, `prompt_id` and `effort`; and a subagent that
 * calls Agent (a nested subagent: its task of depth 2 under the outer one, the outer task's progress, the same
 * messages on both).
 */
import { describe, expect, it } from 'vitest';
import { bothRuns } from './harness/both-runs.ts';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { parityAgentIds, parityNestedAgent, parityPromptIds } from './programs/parity-agent-ids.ts';

type Json = Record<string, any>;
const AGENT_ID = /^a[0-9a-f]{16}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe(parityAgentIds.name, () => {
  const run = bothRuns(parityAgentIds);
  const hooks = (engine: EngineName, event: string) => (run(engine).observed.hookInputs as Json[]).filter((i) => i.hook_event_name === event);
  const byType = (inputs: Json[], type: string) => inputs.find((i) => i.agent_type === type)!;

  it("one id per subagent, in claude's form: the task messages, the launch text, the subagent's messages, SubagentStart/Stop and tool_response", () => {
    for (const engine of ENGINES) {
      expect(run(engine).error, engine).toBeUndefined();
      const tasks = run(engine).observed.taskMessages as Json[];
      const started = Object.fromEntries(tasks.filter((m) => m.subtype === 'task_started').map((m) => [m.tool_use_id, m.task_id]));
      const bg = started.toolu_bg;
      const fg = started.toolu_fg;
      expect([bg, fg], engine).toEqual([expect.stringMatching(AGENT_ID), expect.stringMatching(AGENT_ID)]);
      expect(bg).not.toBe(fg);
      for (const m of tasks.filter((t) => t.subtype !== 'background_tasks_changed')) expect(m.task_id, `${engine} ${m.subtype}`).toBe(started[m.tool_use_id ?? (m.task_id === bg ? 'toolu_bg' : 'toolu_fg')]);
      expect((tasks.find((m) => m.subtype === 'background_tasks_changed')!.tasks as Json[]).map((t) => t.task_id), engine).toEqual([bg]);
      const launch = (run(engine).observed.toolResults as Json[]).find((r) => r.tool_use_id === 'toolu_bg')!;
      expect(JSON.stringify(launch.content), engine).toContain(`agentId: ${bg} (internal ID`);
      expect(run(engine).observed.userTexts, engine).toEqual([{ parent: 'toolu_fg', agent_id: fg }]);
      const start = hooks(engine, 'SubagentStart');
      expect([byType(start, 'slow-counter').agent_id, byType(start, 'general-purpose').agent_id], engine).toEqual([bg, fg]);
      const stop = hooks(engine, 'SubagentStop');
      expect([byType(stop, 'slow-counter').agent_id, byType(stop, 'general-purpose').agent_id], engine).toEqual([bg, fg]);
      const post = Object.fromEntries(hooks(engine, 'PostToolUse').map((i) => [i.tool_use_id, i.tool_response.agentId]));
      expect(post, engine).toEqual({ toolu_bg: bg, toolu_fg: fg });
    }
  });

  it('SubagentStop lists the background subagent still running, and carries prompt_id and effort; SubagentStart carries prompt_id only', () => {
    const fields = (engine: EngineName) => {
      const bg = (run(engine).observed.taskMessages as Json[]).find((m) => m.subtype === 'task_started' && m.tool_use_id === 'toolu_bg')!.task_id;
      const stop = byType(hooks(engine, 'SubagentStop'), 'general-purpose');
      const start = byType(hooks(engine, 'SubagentStart'), 'general-purpose');
      expect([stop.prompt_id, start.prompt_id], engine).toEqual([expect.stringMatching(UUID), stop.prompt_id]);
      return {
        stop: { effort: stop.effort, background_tasks: stop.background_tasks, session_crons: stop.session_crons },
        start: { effort: start.effort, has_background_tasks: 'background_tasks' in start },
        bg,
      };
    };
    const claude = fields('claude');
    expect(claude.stop).toEqual({ effort: { level: 'high' }, background_tasks: [{ id: claude.bg, type: 'subagent', status: 'running', description: 'Slow count', agent_type: 'slow-counter' }], session_crons: [] });
    const turnloop = fields('turnloop');
    expect(turnloop.stop).toEqual({ ...claude.stop, background_tasks: [{ ...claude.stop.background_tasks[0], id: turnloop.bg }] });
    expect(turnloop.start).toEqual(claude.start);
  });

  it("the Agent call's PostToolUse tool_response: claude's object, launch and report (fields turnloop has no counterpart for left out)", () => {
    // Not sent by turnloop: claude's harness* bookkeeping, canContinueAgent / canReadOutputFile (turnloop has no
    // SendMessage), resolvedModel of a launch. The values of ids, paths, durations and token counts are each engine's own.
    const claudeOnly = new Set(['harnessNoteCount', 'harnessTailCount', 'harnessSectionHash', 'canContinueAgent', 'canReadOutputFile']);
    const shape = (engine: EngineName, id: string) => {
      const response = hooks(engine, 'PostToolUse').find((i) => i.tool_use_id === id)!.tool_response as Json;
      return Object.fromEntries(Object.entries(response).filter(([k]) => !claudeOnly.has(k) && !(id === 'toolu_bg' && k === 'resolvedModel')).map(([k, v]) => [k, typeof v === 'object' || /Id$|File$|Ms$|Tokens$/.test(k) ? typeof v : v]));
    };
    for (const id of ['toolu_bg', 'toolu_fg']) expect(shape('turnloop', id), id).toEqual(shape('claude', id));
    expect(shape('claude', 'toolu_fg')).toMatchObject({ status: 'completed', prompt: 'Count quickly.', agentType: 'general-purpose', content: 'object', totalToolUseCount: 0 });
    expect(shape('claude', 'toolu_bg')).toMatchObject({ isAsync: true, status: 'async_launched', description: 'Slow count', prompt: 'Count slowly.' });
  });
});

describe(parityPromptIds.name, () => {
  const run = bothRuns(parityPromptIds);

  it('a new prompt_id per user prompt (not its uuid), from its UserPromptSubmit on; effort on the hooks inside the turn', () => {
    const seen = (engine: EngineName) => {
      const inputs = run(engine).observed.hookInputs as Json[];
      const ids = [...new Set(inputs.map((i) => i.prompt_id))];
      for (const id of ids) expect(id, engine).toMatch(UUID);
      expect(ids, engine).not.toContain('11111111-1111-4111-8111-111111111111');
      return inputs.map((i) => ({ event: i.event, prompt: ids.indexOf(i.prompt_id), effort: i.effort }));
    };
    expect(seen('claude')).toEqual([
      { event: 'UserPromptSubmit', prompt: 0, effort: undefined },
      { event: 'PreToolUse', prompt: 0, effort: { level: 'high' } },
      { event: 'Stop', prompt: 0, effort: { level: 'high' } },
      { event: 'UserPromptSubmit', prompt: 1, effort: undefined },
      { event: 'Stop', prompt: 1, effort: { level: 'high' } },
    ]);
    expect(seen('turnloop')).toEqual(seen('claude'));
  });
});

describe(parityNestedAgent.name, () => {
  const run = bothRuns(parityNestedAgent);

  it('the subagent is offered Agent and its call runs a nested subagent, reported as a task of depth 2, on both', () => {
    for (const engine of ENGINES) {
      const observed = run(engine).observed;
      expect(run(engine).error, engine).toBeUndefined();
      expect((observed.requestTools as string[])[1]!.split(','), engine).toContain('Agent');
      expect((observed.toolResults as Json[]).map((r) => [r.id, r.is_error]), engine).toEqual([['toolu_inner', false], ['toolu_outer', false]]);
      expect((observed.hookInputs as Json[]).map((i) => i.hook_event_name), engine).toEqual(['SubagentStart', 'SubagentStart', 'SubagentStop', 'SubagentStop']);
      const started = run(engine).messages.filter((m) => m.type === 'system' && m.subtype === 'task_started') as Json[];
      expect(started.map((m) => [m.tool_use_id, m.spawn_depth, m.parent_task_id]), engine).toEqual([['toolu_outer', 1, undefined], ['toolu_inner', 2, started[0]!.task_id]]);
      const progress = run(engine).messages.filter((m) => m.type === 'system' && m.subtype === 'task_progress') as Json[];
      expect(progress.map((m) => [m.tool_use_id, m.description, m.last_tool_name]), engine).toEqual([['toolu_outer', 'Count', 'Agent']]);
    }
    expect(run('turnloop').shapes).toEqual(run('claude').shapes);
  });
});
