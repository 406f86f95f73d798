/** How turns end in the headless mode: permissions, maxTurns, API errors, interrupts, hooks; exit codes. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initialize, runHeadless, SDK_ARGS, type Line, types, userLine, writeScript, tempProject } from './headless-harness.ts';

const BASH_THEN_DONE = {
  model: [
    { content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'Bash', input: { command: 'echo from-bash' } }] },
    { content: [{ type: 'text' as const, text: 'done' }] },
  ],
};

function answerPermission(behavior: 'allow' | 'deny') {
  return (line: Line, send: (reply: Line) => void) => {
    if (line.type !== 'control_request' || line.request.subtype !== 'can_use_tool') return;
    const response = behavior === 'allow' ? { behavior, updatedInput: line.request.input } : { behavior, message: 'no shell today' };
    send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response } });
  };
}

const toolResults = (lines: Line[]) => lines.filter((l) => l.type === 'user').flatMap((l) => l.message.content).filter((b: Line) => b.type === 'tool_result');

describe('headless endings', () => {
  it('asks can_use_tool for Bash and runs it when the program allows', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--permission-prompt-tool', 'stdio', '--fake-api', writeScript(cwd, BASH_THEN_DONE)], { cwd, onLine: answerPermission('allow') });
    const ask = run.lines.find((l) => l.type === 'control_request');
    expect(ask?.request).toMatchObject({ subtype: 'can_use_tool', tool_name: 'Bash', input: { command: 'echo from-bash' }, tool_use_id: 'toolu_1' });
    expect(toolResults(run.lines)).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'from-bash' }]);
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', num_turns: 2, permission_denials: [] });
  });

  it('a deny becomes an is_error tool_result with the message and a permission_denials entry', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--permission-prompt-tool=stdio', '--fake-api', writeScript(cwd, BASH_THEN_DONE)], { cwd, onLine: answerPermission('deny') });
    const [result] = toolResults(run.lines);
    expect(result).toMatchObject({ tool_use_id: 'toolu_1', is_error: true });
    expect(result.content).toContain('no shell today');
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', permission_denials: [{ tool_name: 'Bash', tool_use_id: 'toolu_1', tool_input: { command: 'echo from-bash' } }] });
  });

  it('without canUseTool a call that needs asking is denied; --allowedTools allows it without asking', async () => {
    const cwd = tempProject();
    const denied = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, BASH_THEN_DONE)], { cwd });
    expect(toolResults(denied.lines)[0].is_error).toBe(true);
    const allowed = await runHeadless([...SDK_ARGS, '--allowedTools', 'Bash(echo:*)', '--fake-api', writeScript(cwd, BASH_THEN_DONE)], { cwd });
    expect(toolResults(allowed.lines)[0]).toEqual({ type: 'tool_result', tool_use_id: 'toolu_1', content: 'from-bash' });
    expect(allowed.lines.some((l) => l.type === 'control_request')).toBe(false);
  });

  it('maxTurns 1 with a tool call ends error_max_turns with num_turns 2 and the real message, exit 1', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--max-turns', '1', '--permission-mode', 'bypassPermissions', '--fake-api', writeScript(cwd, BASH_THEN_DONE)], { cwd });
    expect(run.code).toBe(1);
    expect(run.lines.at(-1)).toMatchObject({ type: 'result', subtype: 'error_max_turns', is_error: true, num_turns: 2, errors: ['Reached maximum number of turns (1)'], terminal_reason: 'max_turns' });
  });

  it('an API error ends as the real executable ends it: success subtype, is_error, the text as result, reason api_error; exit 1', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, { model: [{ status: 401, repeat: 11 }] })], { cwd });
    expect(run.code).toBe(1);
    const result = run.lines.at(-1)!;
    expect(result).toMatchObject({ type: 'result', subtype: 'success', is_error: true, api_error_status: 401, terminal_reason: 'api_error' });
    expect(result.result).toContain('401');
    expect(run.lines.find((l) => l.type === 'assistant')?.error).toBe('authentication_failed');
  });

  it('an interrupt during streaming ends the turn error_during_execution / aborted_streaming', async () => {
    const cwd = tempProject();
    // The stream stalls after its first event (10 minutes between events): only the interrupt ends it, however slowly the run reacts.
    const slow = { model: [{ content: [{ type: 'text' as const, text: 'a long answer that never finishes streaming' }], eventDelayMs: 600_000 }] };
    let sent = false;
    const run = await runHeadless([...SDK_ARGS, '--include-partial-messages', '--fake-api', writeScript(cwd, slow)], {
      cwd,
      onLine: (line, send) => {
        if (line.type === 'stream_event' && !sent) {
          sent = true;
          send({ type: 'control_request', request_id: 'int-1', request: { subtype: 'interrupt' } });
        }
      },
    });
    expect(run.lines.find((l) => l.type === 'control_response' && l.response.request_id === 'int-1')?.response.subtype).toBe('success');
    expect(run.lines.at(-1)).toMatchObject({ type: 'result', subtype: 'error_during_execution', is_error: true, terminal_reason: 'aborted_streaming', errors: ['[Request interrupted by user]'], num_turns: 2 });
    expect(run.lines.filter((l) => l.type === 'user').at(-1)?.message.content).toEqual([{ type: 'text', text: '[Request interrupted by user]' }]);
    expect(run.code).toBe(1);
  });

  it('a PreToolUse hook that denies stops the call before any permission question', async () => {
    const cwd = tempProject();
    const hooks = { PreToolUse: [{ matcher: 'Bash', hookCallbackIds: ['hook_0'] }] };
    const seen: Line[] = [];
    const run = await runHeadless([...SDK_ARGS, '--permission-prompt-tool', 'stdio', '--fake-api', writeScript(cwd, BASH_THEN_DONE)], {
      cwd,
      opening: [initialize({ hooks }), userLine('run it')],
      onLine: (line, send) => {
        if (line.type !== 'control_request') return;
        seen.push(line.request);
        const response = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'hooks say no' } };
        send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response } });
      },
    });
    expect(seen.map((r) => r.subtype)).toEqual(['hook_callback']);
    expect(seen[0]).toMatchObject({ callback_id: 'hook_0', tool_use_id: 'toolu_1', input: { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'echo from-bash' } } });
    expect(toolResults(run.lines)[0].content).toContain('hooks say no');
    expect(run.lines.at(-1)?.permission_denials).toHaveLength(1);
  });

  it("a PreToolUse hook's updatedInput replaces the call's input and its allow skips the question", async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--permission-prompt-tool', 'stdio', '--fake-api', writeScript(cwd, BASH_THEN_DONE)], {
      cwd,
      opening: [initialize({ hooks: { PreToolUse: [{ matcher: 'Bash|Write', hookCallbackIds: ['rewrite'] }] } }), userLine('run it')],
      onLine: (line, send) => {
        if (line.type !== 'control_request') return;
        const response = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo rewritten' } } };
        send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response } });
      },
    });
    expect(run.lines.filter((l) => l.type === 'control_request').map((l) => l.request.subtype)).toEqual(['hook_callback']);
    expect(toolResults(run.lines)[0]).toEqual({ type: 'tool_result', tool_use_id: 'toolu_1', content: 'rewritten' });
  });

  it('a UserPromptSubmit hook that blocks ends the turn without a model call', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, { model: [] })], {
      cwd,
      opening: [initialize({ hooks: { UserPromptSubmit: [{ hookCallbackIds: ['p'] }] } }), userLine('forbidden')],
      onLine: (line, send) => {
        if (line.type === 'control_request') send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: { decision: 'block', reason: 'not this prompt' } } });
      },
    });
    // As claude 2.1.334: an init, a warning that says why, and a successful result with the same text (exit 0).
    expect(types(run.lines)).toEqual(['control_response', 'control_request', 'system/init', 'system/informational', 'result']);
    const text = 'UserPromptSubmit operation blocked by hook:\nnot this prompt\n\nOriginal prompt: forbidden';
    expect(run.lines[3]).toMatchObject({ content: text, level: 'warning', prompt_submit_outcome: { kind: 'blocked_by_hook', prompt_kept: false, reason: 'not this prompt' } });
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', is_error: false, result: text, num_turns: 0 });
    expect(run.lines.at(-1)).not.toHaveProperty('terminal_reason');
    expect(run.code).toBe(0);
  });

  it('stdin closing while a can_use_tool question is open denies the call instead of hanging', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--permission-prompt-tool', 'stdio', '--fake-api', writeScript(cwd, BASH_THEN_DONE)], {
      cwd,
      opening: [initialize(), userLine('go')],
      onLine: (line, _send, closeInput) => {
        if (line.type === 'control_request') closeInput();
      },
    });
    expect(toolResults(run.lines)[0].is_error).toBe(true);
    expect(run.lines.at(-1)).toMatchObject({ type: 'result', permission_denials: [{ tool_name: 'Bash' }] });
  });
});

describe('headless endings: budget, hooks after tools, modes', () => {
  it('--max-budget-usd reached by a reply that calls a tool: the whole reply kept, the tool not run, no other request, 1 turn (claude 2.1.334)', async () => {
    const cwd = tempProject();
    const script = {
      model: [
        { content: [{ type: 'text' as const, text: 'Creating it.' }, { type: 'tool_use' as const, id: 'toolu_1', name: 'Bash', input: { command: 'touch spent.txt' } }] },
        { content: [{ type: 'text' as const, text: 'never sent' }] },
      ],
    };
    const run = await runHeadless([...SDK_ARGS, '--max-budget-usd', '0.000001', '--permission-mode', 'bypassPermissions', '--fake-api', writeScript(cwd, script)], { cwd });
    expect(run.code).toBe(1);
    expect(types(run.lines)).toEqual(['control_response', 'system/init', 'assistant', 'assistant', 'result']);
    expect(run.lines.filter((l) => l.type === 'assistant').map((l) => l.message.content[0].type)).toEqual(['text', 'tool_use']);
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true, terminal_reason: 'budget_exhausted', num_turns: 1, errors: ['Reached maximum budget ($0.000001)'] });
    expect(existsSync(join(cwd, 'spent.txt'))).toBe(false);
  });

  it('a session stopped by the budget can be resumed by a later process (its log ends in a terminal)', async () => {
    const cwd = tempProject();
    const first = await runHeadless([...SDK_ARGS, '--max-budget-usd', '0.000001', '--permission-mode', 'bypassPermissions', '--fake-api', writeScript(cwd, BASH_THEN_DONE)], { cwd });
    expect(first.lines.at(-1)).toMatchObject({ subtype: 'error_max_budget_usd' });
    const id = first.lines.at(-1)?.session_id;
    const second = await runHeadless([...SDK_ARGS, '--resume', id, '--fake-api', writeScript(cwd, { model: [{ content: [{ type: 'text' as const, text: 'resumed' }] }] }, 'two.json')], { cwd });
    expect(second.stderr).toBe('');
    expect(second.lines.at(-1)).toMatchObject({ subtype: 'success', result: 'resumed', session_id: id });
  });

  it('a session stopped by the budget answers its next message with the unanswered call repaired, not a refused request', async () => {
    const cwd = tempProject();
    const script = {
      model: [
        { content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'Bash', input: { command: 'touch spent.txt' } }] },
        { content: [{ type: 'text' as const, text: 'second answer' }] },
      ],
    };
    const run = await runHeadless([...SDK_ARGS, '--max-budget-usd', '0.000001', '--permission-mode', 'bypassPermissions', '--fake-api', writeScript(cwd, script)], {
      cwd,
      results: 2,
      opening: [initialize(), userLine('first'), userLine('second')],
    });
    const results = run.lines.filter((l) => l.type === 'result');
    expect(results.map((r) => r.subtype)).toEqual(['error_max_budget_usd', 'error_max_budget_usd']);
    // The second turn's request was sent and answered (the fake API refuses an unanswered tool_use).
    expect(run.lines.filter((l) => l.type === 'assistant').at(-1)?.message.content).toEqual([{ type: 'text', text: 'second answer' }]);
    expect(existsSync(join(cwd, 'spent.txt'))).toBe(false);
  });

  it('PostToolUse additionalContext reaches the model; a Stop hook that blocks continues the loop with its reason', async () => {
    const cwd = tempProject();
    const script = { model: [...BASH_THEN_DONE.model, { content: [{ type: 'text' as const, text: 'really done' }] }] };
    let stops = 0;
    const run = await runHeadless([...SDK_ARGS, '--permission-mode', 'bypassPermissions', '--fake-api', writeScript(cwd, script)], {
      cwd,
      opening: [initialize({ hooks: { PostToolUse: [{ matcher: 'Bash', hookCallbackIds: ['post'] }], Stop: [{ hookCallbackIds: ['stop'] }] } }), userLine('go')],
      onLine: (line, send) => {
        if (line.type !== 'control_request') return;
        const id = line.request.callback_id;
        const response = id === 'post'
          ? { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'the shell said hi' } }
          : stops++ === 0 ? { decision: 'block', reason: 'check once more' } : {};
        if (id === 'post') expect(line.request.input).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_response: 'from-bash' });
        send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response } });
      },
    });
    expect(stops).toBe(2);
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', result: 'really done', num_turns: 3 });
    // What the model was shown is in the session log's conversation.
    const log = readFileSync(join(cwd, '.turnloop/sessions', `${run.lines.at(-1)!.session_id}.jsonl`), 'utf8');
    expect(log).toContain('the shell said hi');
    expect(log).toContain('check once more');
  });

  it('bypassPermissions runs every call without asking, also as root (the real executable refuses root)', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--permission-mode', 'bypassPermissions', '--permission-prompt-tool', 'stdio', '--fake-api', writeScript(cwd, BASH_THEN_DONE)], { cwd });
    expect(run.lines.some((l) => l.type === 'control_request')).toBe(false);
    expect(toolResults(run.lines)[0]).toMatchObject({ content: 'from-bash' });
  });

  it('plan mode denies a call that changes things; dontAsk denies what no rule allows', async () => {
    const cwd = tempProject();
    for (const mode of ['plan', 'dontAsk']) {
      const run = await runHeadless([...SDK_ARGS, '--permission-mode', mode, '--permission-prompt-tool', 'stdio', '--fake-api', writeScript(cwd, BASH_THEN_DONE)], { cwd });
      expect(run.lines.some((l) => l.type === 'control_request')).toBe(false);
      expect(toolResults(run.lines)[0].is_error).toBe(true);
      expect(run.lines.at(-1)?.permission_denials).toHaveLength(1);
    }
  });
});

describe('headless offline runs', () => {
  it('a script that runs out ends the turn with an API-error result, without minutes of backoff', async () => {
    const cwd = tempProject();
    const started = Date.now();
    const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, { model: [] })], { cwd });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(run.code).toBe(1);
    expect(run.lines.at(-1)).toMatchObject({ type: 'result', is_error: true, terminal_reason: 'api_error' });
    expect(run.lines.at(-1)?.result).toContain('fake API script exhausted');
  });
});

describe('headless acceptEdits', () => {
  it('runs Write and a plain filesystem command unasked, and asks about any other command', async () => {
    const cwd = tempProject();
    const script = {
      model: [
        {
          content: [
            { type: 'tool_use' as const, id: 'toolu_w', name: 'Write', input: { file_path: 'a.txt', content: 'x' } },
            { type: 'tool_use' as const, id: 'toolu_t', name: 'Bash', input: { command: 'touch command-ran.txt' } },
            { type: 'tool_use' as const, id: 'toolu_n', name: 'Bash', input: { command: 'node -e "1"' } },
          ],
        },
        { content: [{ type: 'text' as const, text: 'done' }] },
      ],
    };
    const asked: string[] = [];
    await runHeadless([...SDK_ARGS, '--permission-mode', 'acceptEdits', '--permission-prompt-tool', 'stdio', '--fake-api', writeScript(cwd, script)], {
      cwd,
      onLine: (line, send) => {
        if (line.type !== 'control_request') return;
        asked.push(line.request.tool_use_id);
        send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: { behavior: 'deny', message: 'no' } } });
      },
    });
    expect(asked).toEqual(['toolu_n']);
    expect(readFileSync(join(cwd, 'a.txt'), 'utf8')).toBe('x');
    expect(readFileSync(join(cwd, 'command-ran.txt'), 'utf8')).toBe('');
  });
});
