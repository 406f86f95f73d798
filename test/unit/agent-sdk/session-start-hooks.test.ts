/**
 * SessionStart hooks from settings files (sdk-hooks.ts, command-hooks.ts), as claude 2.1.334 runs them (side by side:
 * test/agent-sdk/conf-hooks.test.ts): matched on `source`, their input without `permission_mode` and `prompt_id`,
 * a plain stdout and a JSON `additionalContext` worded apart, in the hooks' order, nothing for a resume.
 */
import { describe, expect, it } from 'vitest';
import { HOOK_SUCCESS_TEXT, runSessionStartHooks, type HookContext, type HookRegistry } from '../../../src/agent-sdk/sdk-hooks.ts';
import { hookOutputOf } from '../../../src/agent-sdk/command-hooks.ts';
import type { JsonObject } from '../../../src/agent-sdk/json-lines.ts';

const finished = (stdout: string, code = 0) => ({ code, stdout, stderr: '', timedOut: false, aborted: false });
const hook = { command: './start.sh', timeout: 5 };

function contextAnswering(answers: Record<string, JsonObject>, seen: JsonObject[]): HookContext {
  return {
    base: () => ({ session_id: 's1', transcript_path: '/log.jsonl', cwd: '/project', prompt_id: 'p1', permission_mode: 'default' }),
    ask: async (request) => {
      seen.push(request);
      // The first answers last: the answers still come in the hooks' order.
      if (request.callback_id === 'first') await new Promise((resolve) => setTimeout(resolve, 20));
      return answers[String(request.callback_id)] ?? {};
    },
    warn: () => undefined,
  };
}

describe('SessionStart hooks', () => {
  it('a command\'s plain stdout is its success text, JSON is its answer, other exits give nothing', () => {
    expect(hookOutputOf('SessionStart', hook, finished('hello\n')).output).toEqual({ [HOOK_SUCCESS_TEXT]: 'hello' });
    expect(hookOutputOf('SessionStart', hook, finished('{"hookSpecificOutput":{"additionalContext":"x"}}')).output).toEqual({ hookSpecificOutput: { additionalContext: 'x' } });
    expect(hookOutputOf('SessionStart', hook, finished('shown?', 1)).output).toEqual({});
    expect(hookOutputOf('SessionStart', hook, finished('', 2)).output).toEqual({});
  });

  it('runs the hooks matching the source with claude\'s input, and words their answers in the hooks\' order', async () => {
    const hooks: HookRegistry = { SessionStart: [{ hookCallbackIds: ['first', 'second'] }, { matcher: 'resume', hookCallbackIds: ['resume-only'] }] };
    const seen: JsonObject[] = [];
    const context = contextAnswering({ first: { [HOOK_SUCCESS_TEXT]: 'plain' }, second: { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'json' } } }, seen);
    expect(await runSessionStartHooks(hooks, context, 'startup')).toEqual([
      '<system-reminder>\nSessionStart:startup hook success: plain\n</system-reminder>',
      '<system-reminder>\nSessionStart hook additional context: json\n</system-reminder>',
    ]);
    expect(seen.map((r) => r.callback_id)).toEqual(['first', 'second']);
    expect(seen[0].input).toEqual({ session_id: 's1', transcript_path: '/log.jsonl', cwd: '/project', hook_event_name: 'SessionStart', source: 'startup' });
  });

  it('a resume runs its hooks (the resume matcher\'s too) and gives the model nothing', async () => {
    const hooks: HookRegistry = { SessionStart: [{ hookCallbackIds: ['first'] }, { matcher: 'resume', hookCallbackIds: ['resume-only'] }] };
    const seen: JsonObject[] = [];
    expect(await runSessionStartHooks(hooks, contextAnswering({ first: { [HOOK_SUCCESS_TEXT]: 'plain' } }, seen), 'resume')).toEqual([]);
    expect(seen.map((r) => r.callback_id)).toEqual(['first', 'resume-only']);
  });
});
