/**
 * The system messages of a turn in progress, as claude 2.1.334 sends them (docs/agent-sdk-conformance.md):
 * `api_retry` per retried request, `thinking_tokens` per streamed piece of thinking, `permission_denied` before the
 * error tool_result of a call denied without asking.
 */
import { describe, expect, it } from 'vitest';
import { initialize, runHeadless, SDK_ARGS, type Line, types, userLine, writeScript, tempProject } from './headless-harness.ts';

const BASH_THEN_DONE = {
  model: [
    { content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'Bash', input: { command: 'touch made.txt' } }] },
    { content: [{ type: 'text' as const, text: 'done' }] },
  ],
};

const READ_SECRET = {
  model: [
    { content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'Read', input: { file_path: 'secret/key.txt' } }] },
    { content: [{ type: 'text' as const, text: 'done' }] },
  ],
};

const system = (lines: Line[], subtype: string) => lines.filter((l) => l.type === 'system' && l.subtype === subtype);

describe('system/permission_denied', () => {
  it('comes before the error tool_result of a call denied because nobody can be asked, with its text', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, BASH_THEN_DONE)], { cwd });
    expect(types(run.lines)).toEqual(['control_response', 'system/init', 'assistant', 'system/permission_denied', 'user', 'assistant', 'result']);
    const [denied] = system(run.lines, 'permission_denied');
    const toolResult = run.lines.find((l) => l.type === 'user')?.message.content[0];
    expect(denied).toMatchObject({ tool_name: 'Bash', tool_use_id: 'toolu_1', message: toolResult.content, session_id: run.lines.at(-1)?.session_id });
    expect(toolResult.is_error).toBe(true);
    expect(denied).not.toHaveProperty('decision_reason_type');
  });

  it('names the mode (dontAsk) or the rule (a disallowed-tools pattern: subcommandResults for Bash, as claude) that denied it', async () => {
    const cwd = tempProject();
    const script = writeScript(cwd, BASH_THEN_DONE);
    const dontAsk = await runHeadless([...SDK_ARGS, '--permission-mode', 'dontAsk', '--fake-api', script], { cwd });
    expect(system(dontAsk.lines, 'permission_denied')).toMatchObject([{ tool_name: 'Bash', decision_reason_type: 'mode' }]);
    const rule = await runHeadless([...SDK_ARGS, '--disallowedTools', 'Bash(touch:*)', '--fake-api', script], { cwd });
    expect(system(rule.lines, 'permission_denied')).toMatchObject([{ tool_name: 'Bash', decision_reason_type: 'subcommandResults' }]);
    const readRule = await runHeadless([...SDK_ARGS, '--disallowedTools', 'Read(secret/**)', '--fake-api', writeScript(cwd, READ_SECRET)], { cwd });
    expect(system(readRule.lines, 'permission_denied')).toMatchObject([{ tool_name: 'Read', decision_reason_type: 'rule' }]);
  });

  it('is not sent when the program itself denied the call (canUseTool)', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--permission-prompt-tool', 'stdio', '--fake-api', writeScript(cwd, BASH_THEN_DONE)], {
      cwd,
      onLine: (line, send) => {
        if (line.type !== 'control_request' || line.request.subtype !== 'can_use_tool') return;
        send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: { behavior: 'deny', message: 'no' } } });
      },
    });
    expect(run.lines.at(-1)?.permission_denials).toHaveLength(1);
    expect(system(run.lines, 'permission_denied')).toEqual([]);
  });
});

describe('system/thinking_tokens', () => {
  it('one per streamed piece of thinking, a running estimate of four characters a token, started again per request', async () => {
    const cwd = tempProject();
    // 40 characters stream as pieces of 16, 16 and 8 (the fake API's piece size).
    const thinking = 'x'.repeat(40);
    const script = {
      model: [
        { content: [{ type: 'thinking' as const, thinking, signature: 'sig' }, { type: 'tool_use' as const, id: 'toolu_1', name: 'Read', input: { file_path: 'none.txt' } }] },
        { content: [{ type: 'thinking' as const, thinking: 'Done.', signature: 'sig' }, { type: 'text' as const, text: 'done' }] },
      ],
    };
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, script)], { cwd });
    expect(types(run.lines)).toEqual([
      'control_response', 'system/init',
      'system/thinking_tokens', 'system/thinking_tokens', 'system/thinking_tokens', 'assistant', 'assistant', 'user',
      'system/thinking_tokens', 'assistant', 'assistant', 'result',
    ]);
    expect(system(run.lines, 'thinking_tokens').map((l) => [l.estimated_tokens, l.estimated_tokens_delta])).toEqual([[4, 4], [8, 4], [10, 2], [2, 2]]);
  });

  it("a block's signature raises the estimate to its decoded bytes, four a token, when that is more (claude 2.1.334, probed)", async () => {
    const cwd = tempProject();
    const reply = (thinking: string, signature: string) => ({ content: [{ type: 'thinking' as const, thinking, signature }, { type: 'text' as const, text: 'ok' }] });
    // 400 base64 characters are 300 bytes: 75 tokens. A short signature under the streamed estimate adds no message.
    const script = { model: [reply('x', 's'.repeat(400)), reply('Thinking it over.', 'sig-offline')] };
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, script)], { cwd, results: 2, opening: [initialize(), userLine('one'), userLine('two')] });
    expect(system(run.lines, 'thinking_tokens').map((l) => [l.estimated_tokens, l.estimated_tokens_delta])).toEqual([[1, 1], [75, 74], [4, 4], [5, 1]]);
  });

  it('none for a reply without thinking', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, { model: [{ content: [{ type: 'text' as const, text: 'hi' }] }] })], { cwd });
    expect(system(run.lines, 'thinking_tokens')).toEqual([]);
  });
});

describe('system/api_retry', () => {
  it('one before each retry of a failed request: attempt, max_retries, delay, status and the SDK error kind', async () => {
    const cwd = tempProject();
    const script = { model: [{ status: 529 }, { status: 500 }, { content: [{ type: 'text' as const, text: 'answered' }] }] };
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, script)], { cwd });
    expect(types(run.lines)).toEqual(['control_response', 'system/init', 'system/api_retry', 'system/api_retry', 'assistant', 'result']);
    const retries = system(run.lines, 'api_retry');
    expect(retries).toMatchObject([
      { attempt: 1, max_retries: 10, error_status: 529, error: 'overloaded' },
      { attempt: 2, max_retries: 10, error_status: 500, error: 'server_error' },
    ]);
    for (const retry of retries) expect(retry.retry_delay_ms).toBeGreaterThan(0);
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', result: 'answered' });
  });
});
