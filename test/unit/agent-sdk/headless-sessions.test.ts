/** Sessions of the headless mode: resume a finished conversation, fork it, continue the latest; subagents; -p. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropicApi } from '../../../src/fake-api/index.ts';
import { agentRunKey } from '../../../src/config/wire.ts';
import { runCli } from '../cli/capture-io.ts';
import { runHeadless, SDK_ARGS, writeScript, tempProject, type Line } from './headless-harness.ts';

const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });

describe('headless sessions', () => {
  it('--resume continues a finished conversation with the new prompt and keeps the id', async () => {
    const cwd = tempProject();
    const first = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, { model: [say('the answer is 42')] }, 'one.json')], { cwd, prompt: 'what is the answer?' });
    const id = first.lines.find((l) => l.subtype === 'init')!.session_id as string;
    // The second process must send the whole first turn to the model: the fake API records what it was sent.
    const api = await startFakeAnthropicApi({ model: [say('you asked about the answer')] });
    try {
      const second = await runHeadlessWithApi(api.baseURL, [...SDK_ARGS, '--resume', id], cwd, 'what did I ask?');
      expect(second.lines.find((l) => l.subtype === 'init')?.session_id).toBe(id);
      expect(second.lines.at(-1)).toMatchObject({ subtype: 'success', result: 'you asked about the answer', session_id: id });
      const sent = JSON.stringify((api.requests[0] as { messages: unknown[] }).messages);
      expect(sent).toContain('what is the answer?');
      expect(sent).toContain('the answer is 42');
      expect(sent).toContain('what did I ask?');
    } finally {
      await api.close();
    }
    expect(readdirSync(join(cwd, '.turnloop/sessions'))).toEqual([`${id}.jsonl`]);
  });

  it('--fork-session continues under a new id and leaves the original log', async () => {
    const cwd = tempProject();
    const first = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, { model: [say('one')] }, 'one.json')], { cwd });
    const id = first.lines.find((l) => l.subtype === 'init')!.session_id as string;
    const fork = await runHeadless([...SDK_ARGS, '--resume', id, '--fork-session', '--fake-api', writeScript(cwd, { model: [say('two')] }, 'two.json')], { cwd });
    const forkId = fork.lines.find((l) => l.subtype === 'init')!.session_id as string;
    expect(forkId).not.toBe(id);
    expect(readdirSync(join(cwd, '.turnloop/sessions')).sort()).toEqual([`${id}.jsonl`, `${forkId}.jsonl`].sort());
  });

  it('--continue takes the latest session; --resume of an unknown id is bad input (exit 2)', async () => {
    const cwd = tempProject();
    const first = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, { model: [say('one')] }, 'one.json')], { cwd });
    const id = first.lines.find((l) => l.subtype === 'init')!.session_id;
    const next = await runHeadless([...SDK_ARGS, '--continue', '--fake-api', writeScript(cwd, { model: [say('two')] }, 'two.json')], { cwd });
    expect(next.lines.find((l) => l.subtype === 'init')?.session_id).toBe(id);
    const missing = await runHeadless([...SDK_ARGS, '--resume', 'no-such-session', '--fake-api', writeScript(cwd, { model: [] })], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no session no-such-session');
  });

  it("a Task subagent's messages carry the Task call's id as parent_tool_use_id", async () => {
    const cwd = tempProject();
    const script = {
      model: [
        { content: [{ type: 'tool_use' as const, id: 'toolu_task', name: 'Task', input: { description: 'look', prompt: 'find the thing', subagent_type: 'general-purpose', run_in_background: false } }] },
        say('the subagent found it'),
      ],
      agentRuns: { [agentRunKey(['toolu_task'])]: [say('found it in src/')] },
    };
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, script)], { cwd });
    // As the real executable: the subagent's prompt inside the Task call, not its own messages.
    const child = run.lines.filter((l) => l.parent_tool_use_id === 'toolu_task');
    expect(child.map((l) => l.type)).toEqual(['user']);
    expect(child[0].message.content).toContain('find the thing');
    const taskResult = run.lines.filter((l) => l.type === 'user' && l.parent_tool_use_id === null).flatMap((l) => l.message.content);
    expect(taskResult[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_task', content: 'found it in src/' });
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', result: 'the subagent found it' });
    // With forwardSubagentText, its messages come too.
    const forwarded = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, script, 'again.json')], { cwd, opening: [{ type: 'control_request', request_id: 'i', request: { subtype: 'initialize', forwardSubagentText: true } }, { type: 'user', message: { role: 'user', content: 'look' }, parent_tool_use_id: null }] });
    const inside = forwarded.lines.filter((l) => l.parent_tool_use_id === 'toolu_task');
    expect(inside.map((l) => l.type)).toEqual(['user', 'assistant']);
    expect(inside[1].message.content[0].text).toBe('found it in src/');
    // The session log and the subagent's log beside it replay and draw like any other.
    const log = join(cwd, '.turnloop/sessions', `${run.lines.at(-1)!.session_id}.jsonl`);
    const replayed = await runCli(['replay', log], { cwd });
    expect(replayed.code, replayed.stderr).toBe(0);
    const drawn = await runCli(['viz', log, '--out', join(cwd, 'view.html')], { cwd });
    expect(drawn.code, drawn.stderr).toBe(0);
  });
});

describe('the program\'s agents', () => {
  it('Task runs the agent subagent_type names, with its prompt, tools and model; an unknown type is an error result', async () => {
    const cwd = tempProject();
    const script = {
      model: [
        {
          content: [
            { type: 'tool_use' as const, id: 'toolu_a', name: 'Task', input: { description: 'review', prompt: 'review src', subagent_type: 'reviewer', run_in_background: false } },
            { type: 'tool_use' as const, id: 'toolu_b', name: 'Task', input: { description: 'x', prompt: 'x', subagent_type: 'no-such-agent' } },
          ],
        },
        say('reviewed'),
      ],
      agentRuns: { [agentRunKey(['toolu_a'])]: [say('looks fine')] },
    };
    const agents = { reviewer: { description: 'Reviews code', prompt: 'You review code and say what is wrong.', tools: ['Read', 'Grep'], model: 'haiku' } };
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, script)], { cwd, opening: [{ type: 'control_request', request_id: 'i', request: { subtype: 'initialize', agents, forwardSubagentText: true } }, { type: 'user', message: { role: 'user', content: 'review' }, parent_tool_use_id: null }] });
    const child = run.lines.find((l) => l.type === 'assistant' && l.parent_tool_use_id === 'toolu_a');
    expect(child?.message.model).toBe('claude-haiku-5-5'); // the alias, as claude 2.1.334 resolves it
    const results = run.lines.filter((l) => l.type === 'user' && l.parent_tool_use_id === null).flatMap((l) => l.message.content);
    expect(results.find((r: Line) => r.tool_use_id === 'toolu_a')).toMatchObject({ content: 'looks fine' });
    expect(results.find((r: Line) => r.tool_use_id === 'toolu_b')).toMatchObject({ is_error: true, content: expect.stringContaining("Agent type 'no-such-agent' not found. Available agents: general-purpose, reviewer") });
    // The agent's own system prompt and tools reached its model call (the child log records its request).
    const childLogs = readdirSync(join(cwd, '.turnloop/sessions'), { recursive: true }).map(String).filter((p) => p.includes('toolu_a'));
    expect(childLogs.length).toBe(1);
    const childLog = readFileSync(join(cwd, '.turnloop/sessions', childLogs[0]), 'utf8');
    expect(childLog).toContain('You review code and say what is wrong.');
  });
});

async function runHeadlessWithApi(baseURL: string, argv: string[], cwd: string, prompt: string) {
  const { PassThrough } = await import('node:stream');
  const { main } = await import('../../../src/cli/main.ts');
  const stdin = new PassThrough();
  const out: string[] = [];
  stdin.write(`${JSON.stringify({ type: 'control_request', request_id: 'i', request: { subtype: 'initialize' } })}\n`);
  stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: prompt }, parent_tool_use_id: null })}\n`);
  stdin.end();
  await main(argv, { stdout: { write: (t: string) => out.push(t) }, stderr: { write: () => true }, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: baseURL }, cwd, stdin });
  return { lines: out.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line) };
}

describe('turnloop -p (the shell form)', () => {
  it('prints the answer as text, or the result as json; exit 1 after an error', async () => {
    const cwd = tempProject();
    const text = await runCli(['-p', 'hello', '--fake-api', writeScript(cwd, { model: [say('hi there')] })], { cwd });
    expect(text).toMatchObject({ code: 0, stdout: 'hi there\n' });
    const json = await runCli(['-p', 'hello', '--output-format', 'json', '--fake-api', writeScript(cwd, { model: [say('hi there')] })], { cwd });
    expect(JSON.parse(json.stdout)).toMatchObject({ type: 'result', subtype: 'success', result: 'hi there', is_error: false });
    // An API-error ending: its text on stdout, exit 1 (as claude -p).
    const failed = await runCli(['-p', 'hello', '--fake-api', writeScript(cwd, { model: [{ status: 401, repeat: 11 }] })], { cwd });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('401');
    const failedJson = await runCli(['-p', 'hello', '--output-format', 'json', '--fake-api', writeScript(cwd, { model: [{ status: 401, repeat: 11 }] })], { cwd });
    expect(JSON.parse(failedJson.stdout)).toMatchObject({ subtype: 'success', is_error: true, terminal_reason: 'api_error' });
    // Another error ending: its errors on stderr.
    const maxed = await runCli(['-p', 'hello', '--max-turns', '1', '--permission-mode', 'bypassPermissions', '--fake-api', writeScript(cwd, { model: [{ content: [{ type: 'tool_use', id: 't', name: 'Glob', input: { pattern: '*' } }] }] })], { cwd });
    expect(maxed.code).toBe(1);
    expect(maxed.stdout).toBe('');
    expect(maxed.stderr).toContain('Reached maximum number of turns (1)');
  });

  it('stream-json output writes init, the messages and the result as lines', async () => {
    const cwd = tempProject();
    const run = await runCli(['-p', 'hello', '--output-format=stream-json', '--verbose', '--fake-api', writeScript(cwd, { model: [say('hi')] })], { cwd });
    expect(run.stdout.trim().split('\n').map((l) => JSON.parse(l).type)).toEqual(['system', 'assistant', 'result']);
  });

  it('bad values are bad input with a clear message (exit 2)', async () => {
    const run = await runCli(['-p', 'hello', '--max-turns', 'zero'], { cwd: tempProject() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--max-turns expects a positive integer, got 'zero'");
    const mode = await runCli(['-p', 'hello', '--permission-mode', 'yolo'], { cwd: tempProject() });
    expect(mode.code).toBe(2);
    expect(mode.stderr).toContain("--permission-mode expects one of");
  });

  it('subcommands still work: turnloop export is not taken for the headless mode', async () => {
    const run = await runCli(['export', '--format', 'json']);
    expect(run.code).toBe(0);
  });
});
