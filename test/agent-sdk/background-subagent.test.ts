/**
 * Subagents as tasks (issue 38), through the real `claude` and through `turnloop`, driven by the Agent SDK on one
 * script (inside run-offline.sh).
 * - A Task call with `run_in_background: true`: both answer the call at once with the launch text, end the turn
 *   with a first result, and run the subagent's `<task-notification>` as a turn of its own, with a second result.
 *   The background child and the main loop ask the model at the same time, so which one is answered first is a
 *   race: the compare takes the main thread, the task messages and the subagent's messages each in its own order.
 * - Every Task call (foreground too) is reported as `system/task_started`, `task_updated`, `task_notification`,
 *   and a background one also as `background_tasks_changed`; turnloop sends at least the fields claude sends.
 * - An interrupt of the turn that launched a background subagent stops the subagent too, and no turn follows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { runProgram, type ProgramRun } from './harness/sdk-program.ts';
import type { Shape } from './harness/message-shape.ts';
import { EVERYWHERE } from './known-differences.ts';
import { backgroundSubagent, backgroundSubagentInterrupted } from './programs/background-subagent.ts';
import { subagentTask } from './programs/subagent.ts';

const LAUNCHED = /^Async agent launched successfully\. \(This tool result is internal metadata/;
const NOTIFICATION = /<task-notification>\n<task-id>[^<]+<\/task-id>\n<tool-use-id>toolu_task_bg<\/tool-use-id>\n(?:<output-file>[^<]*<\/output-file>\n)?<status>completed<\/status>\n<summary>Agent "Count files" finished<\/summary>\n(?:<note>[^<]*<\/note>\n)?<result>Done\.<\/result>/;
const TASK_SUBTYPES = ['task_started', 'task_updated', 'task_notification', 'background_tasks_changed'];
const isTaskLine = (shape: Shape) => TASK_SUBTYPES.some((subtype) => shape === `system ${subtype}`);
const isChildLine = (shape: Shape) => shape.includes('(in #');
const claudeOnly = new Set(EVERYWHERE.filter((d) => d.onlyIn === 'claude').flatMap((d) => d.lines));

function toolResultText(messages: readonly SDKMessage[]): string {
  for (const m of messages) {
    if (m.type !== 'user' || m.parent_tool_use_id !== null || !Array.isArray(m.message.content)) continue;
    for (const b of m.message.content) {
      if (b.type !== 'tool_result' || b.tool_use_id !== 'toolu_task_bg') continue;
      return typeof b.content === 'string' ? b.content : (b.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
    }
  }
  return '';
}

/** The texts of a request's last user turn. */
function lastUserTexts(body: unknown): string {
  const messages = ((body ?? {}) as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
  const last = messages.at(-1);
  if (!last || last.role !== 'user') return '';
  return typeof last.content === 'string' ? last.content : (last.content as Array<{ type: string; text?: string; content?: unknown }>).map((b) => b.text ?? JSON.stringify(b.content ?? '')).join('\n');
}

/** The fields of each task message subtype, in the order first seen (claude's timestamps left out). */
function taskFields(messages: readonly SDKMessage[]): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const m of messages as readonly Record<string, unknown>[]) {
    if (m.type !== 'system' || !TASK_SUBTYPES.includes(m.subtype as string)) continue;
    const keys = Object.keys(m).filter((k) => k !== 'written_at');
    fields[m.subtype as string] = [...new Set([...(fields[m.subtype as string] ?? []), ...keys])].sort();
  }
  return fields;
}

const runs = new Map<string, Record<EngineName, ProgramRun>>();
beforeAll(async () => {
  for (const program of [backgroundSubagent, backgroundSubagentInterrupted, subagentTask]) {
    const both = {} as Record<EngineName, ProgramRun>;
    for (const engine of ENGINES) both[engine] = await runProgram(program, engine);
    runs.set(program.name, both);
  }
});
const run = (program: string, engine: EngineName) => runs.get(program)![engine];

describe.each<EngineName>(['claude', 'turnloop'])('a background Task call on %s', (engine) => {
  it('answers the call at once, ends the turn, then runs the task-notification as a second turn', () => {
    const r = run(backgroundSubagent.name, engine);
    expect(r.error).toBeUndefined();
    expect(toolResultText(r.messages)).toMatch(LAUNCHED);
    // Sent once, as the last user turn of the last request (the notification's own turn).
    const notified = r.requests.filter((q) => NOTIFICATION.test(lastUserTexts(q.body)));
    expect(notified).toHaveLength(1);
    expect(r.requests.at(-1)).toBe(notified[0]);
    const results = r.messages.filter((m) => m.type === 'result');
    expect(results.map((m) => m.type === 'result' && [m.subtype, m.is_error, m.num_turns])).toEqual([['success', false, 2], ['success', false, 1]]);
    expect((results[1] as { origin?: unknown }).origin).toMatchObject({ kind: 'task-notification' });
    // The task's end is told before the notification's turn starts.
    const shapes = r.shapes;
    expect(shapes.indexOf('system task_notification')).toBeLessThan(shapes.lastIndexOf('system init'));
  });
});

describe('turnloop against claude', () => {
  it('a background Task call: the same main thread, task messages and subagent messages, each in its order', () => {
    const pick = (engine: EngineName, keep: (shape: Shape) => boolean) => run(backgroundSubagent.name, engine).shapes.filter((s) => !claudeOnly.has(s) && keep(s));
    for (const keep of [(s: Shape) => !isTaskLine(s) && !isChildLine(s), isTaskLine, isChildLine]) {
      expect(pick('turnloop', keep)).toEqual(pick('claude', keep));
    }
    expect(pick('turnloop', isTaskLine)).toEqual(['system background_tasks_changed', 'system task_started', 'system task_updated', 'system task_notification', 'system background_tasks_changed']);
  });

  it.each([backgroundSubagent.name, subagentTask.name])('%s: every task message carries the fields claude sends', (program) => {
    const claude = taskFields(run(program, 'claude').messages);
    const turnloop = taskFields(run(program, 'turnloop').messages);
    expect(Object.keys(turnloop).sort()).toEqual(Object.keys(claude).sort());
    for (const [subtype, keys] of Object.entries(claude)) expect(turnloop[subtype], subtype).toEqual(expect.arrayContaining(keys));
  });
});

describe.each<EngineName>(['claude', 'turnloop'])('an interrupt after a background Task call on %s', (engine) => {
  it('stops the subagent with its turn: killed, a stopped notification, one result and no notification turn', () => {
    const r = run(backgroundSubagentInterrupted.name, engine);
    // The SDK throws on an error result (after yielding it); nothing else.
    if (r.error !== undefined) expect(r.error).toMatch(/^Error: Claude Code returned an error result: /);
    expect(r.observed).toEqual({ interruptAnswered: true });
    const results = r.messages.filter((m) => m.type === 'result');
    expect(results.map((m) => m.type === 'result' && [m.subtype, (m as { terminal_reason?: string }).terminal_reason])).toEqual([['error_during_execution', 'aborted_streaming']]);
    const system = r.messages as Array<Record<string, any>>;
    expect(system.find((m) => m.subtype === 'task_updated')?.patch).toMatchObject({ status: 'killed' });
    expect(system.find((m) => m.subtype === 'task_notification')).toMatchObject({ status: 'stopped', summary: 'Count files' });
    expect(system.filter((m) => m.subtype === 'background_tasks_changed').map((m) => m.tasks.length)).toEqual([1, 0]);
    expect(r.requests.some((q) => lastUserTexts(q.body).includes('<task-notification>'))).toBe(false);
  });
});

it('an interrupt after a background Task call: turnloop sends what claude sends, the task messages and subagent messages each in its order', () => {
  const pick = (engine: EngineName, keep: (shape: Shape) => boolean) => run(backgroundSubagentInterrupted.name, engine).shapes.filter((s) => !claudeOnly.has(s) && keep(s));
  for (const keep of [(s: Shape) => !isTaskLine(s) && !isChildLine(s), isTaskLine, isChildLine]) {
    expect(pick('turnloop', keep)).toEqual(pick('claude', keep));
  }
});
