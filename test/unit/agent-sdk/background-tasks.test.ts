/**
 * Subagents of an SDK session as the real executable (claude 2.1.334) runs them (issue 38; the side-by-side check is
 * test/agent-sdk/background-subagent.test.ts): every Task call is a task (`system/task_started`, `task_updated`,
 * `task_notification`); a `run_in_background: true` call answers at once, its turn ends with a result, and the
 * child's `<task-notification>` starts a turn of its own with a second result. The session stays open until then,
 * whatever the program does with stdin, interrupts or maxTurns.
 */
import { copyFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentRunKey } from '../../../src/config/wire.ts';
import { ChildAnswerMismatchError, replayTree } from '../../../src/replay/child-logs.ts';
import { loadSessionTree } from '../../../src/viz/session-tree.ts';
import { runCli } from '../cli/capture-io.ts';
import { initialize, runHeadless, SDK_ARGS, tempProject, userLine, writeScript, type Line } from './headless-harness.ts';

const say = (text: string, delayMs?: number) => ({ content: [{ type: 'text' as const, text }], ...(delayMs ? { delayMs } : {}) });
const task = (id: string, input: Record<string, unknown>) => ({ content: [{ type: 'tool_use' as const, id, name: 'Task', input: { description: 'Look around', prompt: 'find the thing', ...input } }] });
const AGENT_ID = /^a[0-9a-f]{16}$/;
const TASK_LINES = new Set(['task_started', 'task_updated', 'task_notification', 'background_tasks_changed']);

/** The run's lines in short: `init`, `task_started`, `assistant`, `user`, `result:<text>`... (subagent lines marked `>`). */
function outline(lines: Line[]): string[] {
  return lines.flatMap((l) => {
    if (l.type === 'control_response') return [];
    const inside = l.parent_tool_use_id ? '>' : '';
    if (l.type === 'result') return [`result:${l.result}`];
    if (l.type === 'system') return [TASK_LINES.has(l.subtype) ? l.subtype : l.subtype === 'init' ? 'init' : `system/${l.subtype}`];
    return [`${inside}${l.type}`];
  });
}


describe('subagent tasks of an SDK session', () => {
  it('a foreground Task call: task_started before the child, task_updated and task_notification before the tool_result', async () => {
    const cwd = tempProject();
    const script = { model: [task('toolu_fg', { run_in_background: false }), say('done')], agentRuns: { [agentRunKey(['toolu_fg'])]: [say('found it in src/')] } };
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, script)], { cwd, prompt: 'look' });
    expect(outline(run.lines)).toEqual(['init', 'assistant', 'task_started', '>user', 'task_updated', 'task_notification', 'user', 'assistant', 'result:done']);
    const started = run.lines.find((l) => l.subtype === 'task_started');
    // The task's id is the subagent's own, in claude's form (`a` + 16 hex digits), not the call's id.
    expect(started!.task_id).toMatch(AGENT_ID);
    expect(started).toMatchObject({ task_id: started!.task_id, tool_use_id: 'toolu_fg', description: 'Look around', subagent_type: 'general-purpose', is_backgrounded: false, spawn_depth: 1, task_type: 'local_agent', prompt: 'find the thing' });
    expect(run.lines.find((l) => l.subtype === 'task_updated')).toMatchObject({ task_id: started!.task_id, run_id: started!.run_id, patch: { status: 'completed', end_time: expect.any(Number) } });
    const notification = run.lines.find((l) => l.subtype === 'task_notification');
    expect(notification).toMatchObject({ task_id: started!.task_id, tool_use_id: 'toolu_fg', status: 'completed', summary: 'found it in src/', usage: { total_tokens: expect.any(Number), tool_uses: 0, duration_ms: expect.any(Number) } });
    expect(notification!.output_file).toBe(join(cwd, '.turnloop/sessions', `${started!.session_id}.agents`, 'toolu_fg.jsonl'));
    expect(notification).not.toHaveProperty('summary_is_report');
    // As claude 2.1.334: the subagent's prompt carries its id, its type and the call's description.
    expect(run.lines.find((l) => l.type === 'user' && l.parent_tool_use_id === 'toolu_fg')).toMatchObject({ agent_id: started!.task_id, subagent_type: 'general-purpose', task_description: 'Look around' });
  });

  it('a background Task call: the launch text at once, a first result, then the notification as a turn of its own with a second result', async () => {
    const cwd = tempProject();
    // The child answers late, so the first turn has ended before it does.
    const script = { model: [task('toolu_bg', { run_in_background: true }), say('noted'), say('the report says src/')], agentRuns: { [agentRunKey(['toolu_bg'])]: [say('found it in src/', 300)] } };
    const logFile = join(cwd, 'api.jsonl');
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, script), '--fake-api-log', logFile], { cwd, prompt: 'look in the background', results: 2 });
    expect(run.code).toBe(0);
    expect(outline(run.lines)).toEqual([
      'init', 'assistant', 'background_tasks_changed', 'task_started', 'user', 'assistant', 'result:noted',
      '>assistant', 'task_updated', 'task_notification', 'background_tasks_changed',
      'init', 'assistant', 'result:the report says src/',
    ]);
    const launch = run.lines.find((l) => l.type === 'user' && l.parent_tool_use_id === null)!.message.content[0];
    expect(launch).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_bg' });
    // One id for the subagent everywhere: the launch text's agentId, the task messages' task_id, the notification's task-id.
    const agentId = run.lines.find((l) => l.subtype === 'task_started')!.task_id;
    expect(agentId).toMatch(AGENT_ID);
    expect(String(launch.content)).toMatch(new RegExp(`^Async agent launched successfully\\. .*\\nagentId: ${agentId} .*\\n.*\\n.*\\noutput_file: .*toolu_bg\\.jsonl\\nDo NOT Read or tail this file`, 's'));
    const sets = run.lines.filter((l) => l.subtype === 'background_tasks_changed').map((l) => l.tasks.map((t: Line) => [t.task_id, t.description, t.task_type]));
    expect(sets).toEqual([[[agentId, 'Look around', 'local_agent']], []]);
    expect(run.lines.filter((l) => l.subtype === 'task_updated' || l.subtype === 'task_notification').map((l) => l.task_id)).toEqual([agentId, agentId]);
    expect(run.lines.find((l) => l.subtype === 'task_started')).toMatchObject({ is_backgrounded: true });
    expect(run.lines.find((l) => l.type === 'assistant' && l.parent_tool_use_id === 'toolu_bg')).toMatchObject({ agent_id: agentId, subagent_type: 'general-purpose', task_description: 'Look around' });
    expect(run.lines.find((l) => l.subtype === 'task_notification')).toMatchObject({ status: 'completed', summary: 'found it in src/', summary_is_report: true });
    const results = run.lines.filter((l) => l.type === 'result');
    expect(results.map((r) => [r.subtype, r.num_turns])).toEqual([['success', 2], ['success', 1]]);
    expect(results[1]!.origin).toEqual({ kind: 'task-notification', producer: 'session-task', runId: run.lines.find((l) => l.subtype === 'task_started')!.run_id });
    // The notification turn's request ends with the notification, one text block, after the first turn's answer.
    const { readFileSync } = await import('node:fs');
    const requests = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l).body);
    const main = requests.filter((b) => JSON.stringify(b.messages[0]).includes('look in the background'));
    expect(main).toHaveLength(3);
    const last = main[2].messages;
    expect(last.at(-2)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'noted' }] });
    expect(last.at(-1).content).toHaveLength(1);
    expect(last.at(-1).content[0].text).toMatch(new RegExp(`<task-notification>\n<task-id>${agentId}</task-id>`));
    expect(last.at(-1).content[0].text).toMatch(/<\/task-id>\n<tool-use-id>toolu_bg<\/tool-use-id>\n<output-file>[^<]+toolu_bg\.jsonl<\/output-file>\n<status>completed<\/status>\n<summary>Agent "Look around" finished<\/summary>\n<result>found it in src\/<\/result>\n<usage>/);
    // Recorded: the session's log (the last turn's, whole conversation) replays with its child, and draws it.
    const log = join(cwd, '.turnloop/sessions', `${results[1]!.session_id}.jsonl`);
    const tree = replayTree(log);
    expect(tree.terminal?.reason).toBe('completed');
    expect([...tree.children.keys()]).toEqual(['toolu_bg']);
    expect(loadSessionTree(log).children?.map((c) => c.toolUseId)).toEqual(['toolu_bg']);
    const drawn = await runCli(['viz', log, '--out', join(cwd, 'view.html')], { cwd });
    expect(drawn.code, drawn.stderr).toBe(0);
    expect(drawn.stdout + drawn.stderr).toContain('1 subagent run');
  });

  it('a Task call that does not say run_in_background runs in the background, as claude 2.1.334 does; false keeps it in the foreground', async () => {
    const cwd = tempProject();
    const script = {
      model: [
        { content: [...task('toolu_unset', {}).content, ...task('toolu_fg', { run_in_background: false }).content] },
        say('both asked'),
        say('reported'),
      ],
      agentRuns: { [agentRunKey(['toolu_unset'])]: [say('unset: found it', 300)], [agentRunKey(['toolu_fg'])]: [say('fg: found it')] },
    };
    const sessions = join(cwd, '.turnloop/sessions');
    let launchingTurnLog = '';
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, script)], {
      cwd,
      results: 1,
      onLine(line) {
        // The launching turn's log, as it is until the notification's turn replaces it.
        if (line.type === 'result' && !launchingTurnLog) copyFileSync(join(sessions, `${line.session_id}.jsonl`), (launchingTurnLog = join(cwd, 'turn1.jsonl')));
      },
    });
    const started = Object.fromEntries(run.lines.filter((l) => l.subtype === 'task_started').map((l) => [l.tool_use_id, l.is_backgrounded]));
    expect(started).toEqual({ toolu_unset: true, toolu_fg: false });
    const answers = Object.fromEntries(run.lines.filter((l) => l.type === 'user' && l.parent_tool_use_id === null).flatMap((l) => l.message.content).map((b: Line) => [b.tool_use_id, String(b.content)]));
    expect(answers.toolu_unset).toMatch(/^Async agent launched successfully\./);
    expect(answers.toolu_fg).toBe('fg: found it');
    expect(run.lines.filter((l) => l.type === 'result').map((r) => r.result)).toEqual(['both asked', 'reported']);
    // Each log replays with its children, each child checked against what its parent was told: the foreground
    // report, and the background notification (not the launch text).
    const log = join(sessions, `${run.lines.at(-1)!.session_id}.jsonl`);
    cpSync(`${log.slice(0, -'.jsonl'.length)}.agents`, join(cwd, 'turn1.agents'), { recursive: true });
    expect([...replayTree(launchingTurnLog).children.keys()].sort()).toEqual(['toolu_fg', 'toolu_unset']);
    expect([...replayTree(log).children.keys()].sort()).toEqual(['toolu_fg', 'toolu_unset']);
    // Another child's log in the place of the background one is refused (its answer is not the notification's).
    const agents = `${log.slice(0, -'.jsonl'.length)}.agents`;
    copyFileSync(join(agents, 'toolu_fg.jsonl'), join(agents, 'toolu_unset.jsonl'));
    expect(() => replayTree(log)).toThrow(ChildAnswerMismatchError);
  });

  it('stdin closed after the first result (a one-prompt query) still gets the notification turn and its result', async () => {
    const cwd = tempProject();
    const script = { model: [task('toolu_bg', { run_in_background: true }), say('noted'), say('reported')], agentRuns: { [agentRunKey(['toolu_bg'])]: [say('found it', 300)] } };
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, script)], { cwd, results: 1 });
    expect(run.code).toBe(0);
    expect(run.lines.filter((l) => l.type === 'result').map((r) => r.result)).toEqual(['noted', 'reported']);
  });

  it('maxTurns ends the launching turn (error_max_turns); the notification still gets its turn', async () => {
    const cwd = tempProject();
    const script = { model: [task('toolu_bg', { run_in_background: true }), say('reported')], agentRuns: { [agentRunKey(['toolu_bg'])]: [say('found it', 200)] } };
    const run = await runHeadless([...SDK_ARGS, '--max-turns', '1', '--fake-api', writeScript(cwd, script)], { cwd, results: 1 });
    expect(run.code).toBe(0);
    expect(run.lines.filter((l) => l.type === 'result').map((r) => [r.subtype, r.num_turns])).toEqual([['error_max_turns', 2], ['success', 1]]);
  });

  it('an interrupt during the notification turn ends that turn; the session then ends', async () => {
    const cwd = tempProject();
    const slow = { content: [{ type: 'text' as const, text: 'a long answer' }], eventDelayMs: 200 };
    const script = { model: [task('toolu_bg', { run_in_background: true }), say('noted'), slow], agentRuns: { [agentRunKey(['toolu_bg'])]: [say('found it', 100)] } };
    let inits = 0;
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, script)], {
      cwd,
      results: 2,
      onLine(line, send) {
        if (line.subtype === 'init' && ++inits === 2) setTimeout(() => send({ type: 'control_request', request_id: 'int-1', request: { subtype: 'interrupt' } }), 50);
      },
    });
    expect(run.lines.find((l) => l.type === 'control_response' && l.response.request_id === 'int-1')).toBeDefined();
    expect(run.lines.filter((l) => l.type === 'result').map((r) => [r.subtype, r.terminal_reason])).toEqual([['success', 'completed'], ['error_during_execution', 'aborted_streaming']]);
  });

  it('an interrupt of the launching turn stops its background subagent too: killed, a stopped notification, no turn for it', async () => {
    const cwd = tempProject();
    const slow = { content: [{ type: 'text' as const, text: 'late' }], delayMs: 1000 };
    const script = { model: [task('toolu_bg', { run_in_background: true }), slow, say('never asked')], agentRuns: { [agentRunKey(['toolu_bg'])]: [slow] } };
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, script)], {
      cwd,
      results: 1,
      onLine(line, send) {
        if (line.type === 'user' && line.parent_tool_use_id === null) setTimeout(() => send({ type: 'control_request', request_id: 'int-1', request: { subtype: 'interrupt' } }), 100);
      },
    });
    expect(run.code).toBe(1);
    expect(run.lines.filter((l) => l.type === 'result').map((r) => r.terminal_reason)).toEqual(['aborted_streaming']);
    expect(run.lines.find((l) => l.subtype === 'task_updated')?.patch).toMatchObject({ status: 'killed' });
    expect(run.lines.find((l) => l.subtype === 'task_notification')).toMatchObject({ status: 'stopped', summary: 'Look around' });
    expect(run.lines.filter((l) => l.subtype === 'background_tasks_changed').map((l) => l.tasks.length)).toEqual([1, 0]);
    expect(run.lines.find((l) => l.type === 'user' && l.parent_tool_use_id === 'toolu_bg')?.message.content).toEqual([{ type: 'text', text: '[Request interrupted by user]' }]);
  });

  it('turnloop -p runs the notification turn too: text prints each answer, json the last result', async () => {
    const cwd = tempProject();
    const script = () => writeScript(cwd, { model: [task('toolu_bg', { run_in_background: true }), say('noted'), say('reported')], agentRuns: { [agentRunKey(['toolu_bg'])]: [say('found it', 200)] } });
    const text = await runCli(['-p', 'look', '--fake-api', script()], { cwd });
    expect(text).toMatchObject({ code: 0, stdout: 'noted\n\nreported\n' });
    const json = await runCli(['-p', 'look', '--output-format', 'json', '--fake-api', script()], { cwd });
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ result: 'reported', origin: { kind: 'task-notification' } });
  });

  it('a session with no background child ends when stdin closes, as before', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, { model: [say('hi')] })], { cwd, opening: [initialize(), userLine('hello')] });
    expect(run.lines.filter((l) => l.type === 'result')).toHaveLength(1);
  });
});
