/** The stream-json protocol of the headless mode, driven over stdin/stdout as the Agent SDK drives it. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replay } from '../../../src/replay/replay.ts';
import { initialize, runHeadless, SDK_ARGS, types, userLine, writeScript, tempProject } from './headless-harness.ts';

const TEXT = { model: [{ content: [{ type: 'text' as const, text: 'Hello from the scripted model.' }] }] };

describe('headless stream-json protocol', () => {
  it('answers initialize, then writes init, the assistant message and one success result per turn', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, TEXT)], { cwd });
    expect(run.code).toBe(0);
    expect(types(run.lines)).toEqual(['control_response', 'system/init', 'assistant', 'result']);
    expect(run.lines[0].response).toMatchObject({ subtype: 'success', request_id: 'init-1' });
    const [, init, assistant, result] = run.lines;
    expect(init.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(init).toMatchObject({ cwd, permissionMode: 'default', model: expect.any(String), claude_code_version: expect.any(String) });
    expect(init.tools).toEqual(expect.arrayContaining(['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash', 'Task']));
    expect(assistant).toMatchObject({ parent_tool_use_id: null, session_id: init.session_id, uuid: expect.any(String) });
    expect(result).toMatchObject({ subtype: 'success', is_error: false, result: 'Hello from the scripted model.', terminal_reason: 'completed', num_turns: 1, permission_denials: [] });
    expect(result.total_cost_usd).toBeGreaterThan(0);
    expect(Object.keys(result.modelUsage)).toEqual([assistant.message.model]);
    expect(result.usage.output_tokens).toBe(assistant.message.usage.output_tokens);
  });

  it('writes a reply with several blocks as one assistant message per block, sharing message.id, as the real executable does', async () => {
    const cwd = tempProject();
    const script = { model: [{ content: [{ type: 'thinking' as const, thinking: 'hmm', signature: 's' }, { type: 'text' as const, text: 'a' }, { type: 'text' as const, text: 'b' }] }] };
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, script)], { cwd });
    const assistants = run.lines.filter((l) => l.type === 'assistant');
    expect(assistants.map((a) => a.message.content.map((b: { type: string }) => b.type))).toEqual([['thinking'], ['text'], ['text']]);
    expect(new Set(assistants.map((a) => a.message.id)).size).toBe(1);
    expect(new Set(assistants.map((a) => a.uuid)).size).toBe(3);
    // The result is the text of the last assistant message (its last block here).
    expect(run.lines.at(-1)?.result).toBe('b');
  });

  it('records the session as a turnloop session log named by its id, which replays to the same ending', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, TEXT)], { cwd });
    const log = join(cwd, '.turnloop/sessions', `${run.lines[1].session_id}.jsonl`);
    expect(existsSync(log)).toBe(true);
    expect(replay(log).terminal?.reason).toBe('completed');
  });

  it('--no-session-persistence writes no log', async () => {
    const cwd = tempProject();
    await runHeadless([...SDK_ARGS, '--no-session-persistence', '--fake-api', writeScript(cwd, TEXT)], { cwd });
    expect(existsSync(join(cwd, '.turnloop'))).toBe(false);
  });

  it('runs each user message as the next turn of the same conversation', async () => {
    const cwd = tempProject();
    const script = { model: [{ content: [{ type: 'text' as const, text: 'one' }] }, { content: [{ type: 'text' as const, text: 'two' }] }] };
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, script)], {
      cwd,
      opening: [initialize(), userLine('first'), userLine('second')],
      results: 2,
    });
    const results = run.lines.filter((l) => l.type === 'result');
    expect(results.map((r) => r.result)).toEqual(['one', 'two']);
    expect(new Set(run.lines.filter((l) => l.session_id).map((l) => l.session_id)).size).toBe(1);
  });

  it('names flags it does not implement once on stderr and runs anyway', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--betas', 'context-1m', '--brand-new-flag=1', '--fake-api', writeScript(cwd, TEXT)], { cwd });
    expect(run.code).toBe(0);
    expect(run.stderr.match(/ignoring options/g)).toHaveLength(1);
    expect(run.stderr).toContain('--betas context-1m');
    expect(run.stderr).toContain('--brand-new-flag 1');
  });

  it('a malformed stdin line is named on stderr and the run goes on', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, TEXT)], {
      cwd,
      opening: [initialize(), 'not json' as never, userLine('hello')],
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/stdin line 2 is not a JSON object/);
    expect(run.lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
  });

  it('answers an unsupported control request with an error response', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, TEXT)], {
      cwd,
      opening: [initialize(), { type: 'control_request', request_id: 'x-9', request: { subtype: 'rewind_files' } }, userLine('hello')],
    });
    const answer = run.lines.find((l) => l.type === 'control_response' && l.response.request_id === 'x-9');
    expect(answer?.response).toMatchObject({ subtype: 'error', error: expect.stringContaining('rewind_files') });
  });

  it('set_permission_mode and set_model are acknowledged and apply to the next turn', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, TEXT)], {
      cwd,
      opening: [
        initialize(),
        { type: 'control_request', request_id: 'm', request: { subtype: 'set_permission_mode', mode: 'plan' } },
        { type: 'control_request', request_id: 'n', request: { subtype: 'set_model', model: 'claude-haiku-4-5' } },
        userLine('hello'),
      ],
    });
    expect(run.lines.filter((l) => l.type === 'control_response').map((l) => l.response.subtype)).toEqual(['success', 'success', 'success']);
    expect(run.lines.find((l) => l.subtype === 'init')).toMatchObject({ permissionMode: 'plan', model: 'claude-haiku-4-5' });
  });

  it('with --include-partial-messages streams the raw events before the assistant message', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--include-partial-messages', '--fake-api', writeScript(cwd, TEXT)], { cwd });
    const kinds = types(run.lines);
    const firstEvent = kinds.indexOf('stream_event');
    expect(firstEvent).toBeGreaterThan(0);
    expect(firstEvent).toBeLessThan(kinds.indexOf('assistant'));
    expect(run.lines[firstEvent].event.type).toBe('message_start');
    // As the real executable: a system/status 'requesting' right before the request's events.
    expect(run.lines[firstEvent - 1]).toMatchObject({ type: 'system', subtype: 'status', status: 'requesting' });
    expect(run.lines.filter((l) => l.type === 'stream_event').every((l) => l.parent_tool_use_id === null && l.uuid)).toBe(true);
  });

  it('without it writes no stream_event, and never writes our own items (request markers, attachments)', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, TEXT)], { cwd });
    expect(run.lines.every((l) => ['control_response', 'system', 'assistant', 'user', 'result'].includes(l.type))).toBe(true);
  });
});
