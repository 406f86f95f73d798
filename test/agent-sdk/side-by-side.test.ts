/**
 * The side-by-side suite of issue #28 (item 8): each SDK program runs against the real `claude` and against
 * `turnloop` on one script of the fake API, inside a loopback-only network namespace (run-offline.sh).
 *
 * For each program:
 * - the facts the issue states (and the ones seen since, docs/agent-sdk-conformance.md) hold for both executables;
 * - the executable asks the API for nothing but `POST /v1/messages`;
 * - the SDK never fails inside itself: it ends normally, or with its own "returned an error result" error after an
 *   error result, never with a TypeError or a hang;
 * - turnloop's sequence of messages, reduced to its structure (harness/message-shape.ts), equals claude's, up to
 *   the differences listed in `KNOWN_DIFFERENCES` (each in the conformance doc).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SDKMessage, SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { runProgram, type ProgramRun, type SdkProgram } from './harness/sdk-program.ts';
import { KNOWN_DIFFERENCES, comparableShapes, differenceLines } from './known-differences.ts';
import { bypassPermissions } from './programs/bypass-permissions.ts';
import { PROGRAMS } from './programs/index.ts';

const results = (run: ProgramRun) => run.messages.filter((m): m is SDKResultMessage => m.type === 'result');
const lastResult = (run: ProgramRun) => results(run).at(-1);

/** The facts every engine must show, per program (seen on claude 2.1.334 / SDK 0.3.334; the list). */
const FACTS: Record<string, (run: ProgramRun) => void> = {
  'a text answer': (run) => {
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, terminal_reason: 'completed', num_turns: 1 });
  },
  'a tool call allowed and one denied by canUseTool': (run) => {
    expect(run.observed).toEqual({ asked: ['Write', 'Bash'], written: true, deniedCommandRan: false });
    const result = lastResult(run);
    expect(result).toMatchObject({ subtype: 'success', is_error: false, num_turns: 3 });
    expect(result?.permission_denials.map((d) => [d.tool_name, d.tool_use_id])).toEqual([['Bash', 'toolu_bash_1']]);
    const denied = toolResult(run.messages, 'toolu_bash_1');
    expect(denied).toMatchObject({ is_error: true });
    expect(JSON.stringify(denied?.content)).toContain('The user refused this command.');
  },
  'canUseTool answering with updatedPermissions (always allow)': (run) => {
    // Seen on claude 2.1.334: the exact command's rule suggested for localSettings, written there and (the suite's
    // settingSources being []) not applied, so the same command is asked for again; acceptEdits for the session applied.
    const rule = { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'touch notes.txt' }], behavior: 'allow', destination: 'localSettings' };
    expect(run.observed).toEqual({
      asked: ['Bash', 'Bash', 'Write'],
      bashRuleSuggested: [rule, rule],
      writeSuggestions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
      settingsLocal: { permissions: { allow: ['Bash(touch notes.txt)'] } },
      plan: 'two\n',
      notes: true,
    });
    expect(run.messages.filter((m) => m.type === 'system' && m.subtype === 'status')).toMatchObject([{ status: null, permissionMode: 'acceptEdits' }]);
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, num_turns: 5, permission_denials: [] });
  },
  // Seen on claude 2.1.334: rules of the settings files of settingSources apply as the flags' rules do (a deny rule
  // refuses unasked: a permission_denials entry); a file of a source not given is not read; a bad file is left out
  // (the whole file, or the bad entry alone) and named in a system/informational warning after system/init.
  'permission rules from the settings files of settingSources': (run) => {
    expect(run.observed).toEqual({ asked: [], allowedWritten: true, goneRemoved: false, denials: ['Bash'], warning: null });
  },
  'settingSources local: the project settings file is not read': (run) => {
    expect(run.observed).toEqual({ asked: ['rm -f gone.txt'], allowedWritten: true, goneRemoved: true, denials: [], warning: null });
  },
  'a settings file that is not valid JSON is left out with a warning': (run) => {
    expect(run.observed).toEqual({ asked: ['touch allowed.txt'], allowedWritten: true, goneRemoved: false, denials: ['Bash'], warning: { tag: 'settings_not_in_effect', level: 'warning', namesFile: true } });
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false });
  },
  'a settings rule that is not a string is skipped with a warning': (run) => {
    expect(run.observed).toEqual({ asked: [], allowedWritten: true, goneRemoved: false, denials: ['Bash'], warning: { tag: 'settings_not_in_effect', level: 'warning', namesFile: true } });
  },
  'acceptEdits mode and disallowedTools': (run) => {
    expect(run.observed).toEqual({ asked: ['Bash'], edited: true, touched: true, commandRan: false, globOffered: false, writeOffered: true });
    expect(lastResult(run)?.permission_denials.map((d) => d.tool_name)).toEqual(['Bash']);
  },
  'maxTurns: 1 with a tool call': (run) => {
    expect(lastResult(run)).toMatchObject({
      subtype: 'error_max_turns',
      is_error: true,
      terminal_reason: 'max_turns',
      num_turns: 2,
      errors: ['Reached maximum number of turns (1)'],
    });
    expect(run.unusedAnswers).toBe(1);
  },
  'a PreToolUse hook that denies': (run) => {
    expect(run.observed).toEqual({ hookCalls: ['PreToolUse:Read'] });
    expect(toolResult(run.messages, 'toolu_read_1')).toMatchObject({ is_error: true });
    expect(JSON.stringify(toolResult(run.messages, 'toolu_read_1')?.content)).toContain('Secrets stay closed.');
    expect(lastResult(run)?.permission_denials.map((d) => d.tool_name)).toEqual(['Read']);
  },
  'hooks on every event of a turn': (run) => {
    expect(run.observed).toEqual({ calls: ['UserPromptSubmit', 'PreToolUse:Read', 'PostToolUse:Read', 'Stop'], contextReachedModel: true });
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, num_turns: 2 });
  },
  'a tool of an in-process SDK MCP server': (run) => {
    expect(run.observed).toEqual({ calls: [{ a: 2, b: 3 }] });
    const answered = toolResult(run.messages, 'toolu_add_1');
    expect(answered?.is_error ?? false).toBe(false);
    expect(JSON.stringify(answered?.content)).toContain('5');
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, num_turns: 2 });
  },
  'an API error ending': (run) => {
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: true, terminal_reason: 'api_error', num_turns: 1 });
    expect(lastResult(run)).not.toHaveProperty('errors');
    expect((lastResult(run) as { result?: string } | undefined)?.result).toContain('403');
  },
  'partial messages': (run) => {
    expect(run.observed.streamEvents).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
  },
  'resume of a finished session': (run) => {
    expect(run.observed).toEqual({ sameSessionId: true, secondRequestRoles: ['user', 'assistant', 'user'] });
    expect(results(run).map((r) => r.subtype)).toEqual(['success', 'success']);
  },
  'an interrupt': (run) => {
    expect(run.observed).toEqual({ interruptAnswered: true });
    expect(lastResult(run)).toMatchObject({ subtype: 'error_during_execution', is_error: true, terminal_reason: 'aborted_streaming' });
    const texts = run.messages.flatMap((m) => (m.type === 'user' ? [JSON.stringify(m.message.content)] : []));
    expect(texts.some((t) => t.includes('[Request interrupted by user]'))).toBe(true);
  },
  'a subagent (Task)': (run) => {
    const inside = run.messages.filter((m) => 'parent_tool_use_id' in m && m.parent_tool_use_id === 'toolu_task_1');
    expect(inside.length).toBeGreaterThan(0);
    expect(toolResult(run.messages, 'toolu_task_1')?.is_error ?? false).toBe(false);
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, num_turns: 2 });
  },
  'streaming input, two user messages': (run) => {
    expect(run.observed).toEqual({ secondRequestRoles: ['user', 'assistant', 'user'], sessions: 1 });
    expect(results(run).map((r) => [r.subtype, r.num_turns])).toEqual([['success', 1], ['success', 1]]);
  },
  'a PreToolUse hook that stops the turn': (run) => {
    // The tool still runs (it was allowed); the turn then ends without another request, as a success.
    expect(run.observed).toEqual({ hookCalls: ['PreToolUse:Bash'], commandRan: true });
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, result: '', terminal_reason: 'hook_stopped', num_turns: 2 });
    expect(run.unusedAnswers).toBe(1);
  },
  'a Stop hook that stops': (run) => {
    expect(run.observed).toEqual({ calls: ['Stop'] });
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, result: 'Done.', terminal_reason: 'stop_hook_prevented', num_turns: 1 });
  },
  'two tool calls in one reply': (run) => {
    // Each tool_result is a user message of its own, and each counts as a turn.
    expect(run.observed).toEqual({ written: ['a\n', 'b\n'] });
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, terminal_reason: 'completed', num_turns: 3 });
  },
  'an interrupt during a tool': (run) => {
    expect(run.observed).toEqual({ interruptAnswered: true });
    expect(toolResult(run.messages, 'toolu_bash_1')).toMatchObject({ is_error: true });
    expect(lastResult(run)).toMatchObject({ subtype: 'error_during_execution', is_error: true, terminal_reason: 'aborted_tools', num_turns: 3 });
  },
  'structured output (outputFormat json_schema)': (run) => {
    expect(run.observed).toEqual({ structuredOutput: { city: 'Paris', population: 2102650 }, result: '{"city":"Paris","population":2102650}' });
    expect(toolResult(run.messages, 'toolu_so_1')).toMatchObject({ is_error: true, content: "Output does not match required schema: root: must have required property 'population'" });
    expect(toolResult(run.messages, 'toolu_so_2')).toMatchObject({ content: 'Structured output provided successfully' });
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, terminal_reason: 'completed', num_turns: 3 });
    expect(run.unusedAnswers).toBe(1);
  },
  'structured output that never matches': (run) => {
    expect(lastResult(run)).toMatchObject({
      subtype: 'error_max_structured_output_retries', is_error: true, terminal_reason: 'structured_output_retry_exhausted', num_turns: 6,
      errors: ["Failed to provide valid structured output after 5 attempts \u2014 last StructuredOutput error: Output does not match required schema: root: must have required property 'n'"],
    });
    expect(run.unusedAnswers).toBe(2);
  },
  'a project skill with settingSources': (run) => {
    // claude lists its own built-in skills after the project's; the project's comes first on both.
    expect(run.observed).toEqual({ firstSkill: 'greet', memoryReachedModel: true });
    expect(toolResult(run.messages, 'toolu_skill_1')).toMatchObject({ content: 'Launching skill: greet' });
    const body = run.messages.find((m) => m.type === 'user' && JSON.stringify(m.message.content).includes('Base directory for this skill'));
    expect(JSON.stringify(body)).toContain('Say hello in three languages.');
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, terminal_reason: 'completed', num_turns: 3 });
  },
  'the agents option': (run) => {
    expect(run.observed).toEqual({ reviewerListed: true, generalPurposeListed: true });
    expect(toolResult(run.messages, 'toolu_task_1')?.is_error ?? false).toBe(false);
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, num_turns: 2 });
  },
  'fallbackModel after overloads': (run) => {
    expect(run.observed).toEqual({ requestedModels: ['claude-sonnet-4-6', 'claude-sonnet-4-6', 'claude-sonnet-4-6', 'claude-haiku-4-5'] });
    expect(run.messages.find((m) => m.type === 'system' && (m as { subtype?: string }).subtype === 'model_fallback')).toMatchObject({ original_model: 'claude-sonnet-4-6', fallback_model: 'claude-haiku-4-5' });
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, result: 'Answered by the fallback model.' });
  },
  'a PreToolUse hook that stops a denied call': (run) => {
    expect(run.observed).toEqual({ commandRan: false });
    expect(toolResult(run.messages, 'toolu_bash_1')).toMatchObject({ is_error: true });
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, terminal_reason: 'completed', num_turns: 2, result: 'The command was refused.' });
    expect(lastResult(run)?.permission_denials.map((d) => d.tool_name)).toEqual(['Bash']);
  },
  'a UserPromptSubmit hook that blocks': (run) => {
    expect(run.observed).toEqual({ result: 'UserPromptSubmit operation blocked by hook:\nNot this prompt.\n\nOriginal prompt: Do the forbidden thing.' });
    expect(run.requests).toEqual([]);
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, num_turns: 0 });
  },
  'maxBudgetUsd reached on a reply that calls a tool': (run) => {
    expect(run.requests).toHaveLength(1);
    expect(run.unusedAnswers).toBe(1);
    expect(lastResult(run)).toMatchObject({
      subtype: 'error_max_budget_usd',
      is_error: true,
      terminal_reason: 'budget_exhausted',
      num_turns: 1,
      errors: ['Reached maximum budget ($0.0001)'],
    });
    expect(run.messages.filter((m) => m.type === 'user')).toEqual([]);
  },
  'a reply with long thinking': (run) => {
    expect(run.observed).toEqual({ estimates: [[4, 4], [8, 4], [12, 4], [16, 4], [20, 4], [24, 4], [25, 1]] });
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, num_turns: 1 });
  },
  'a reply whose thinking is mostly hidden': (run) => {
    // 400 base64 characters of signature are 300 bytes: 75 tokens.
    expect(run.observed).toEqual({ estimates: [[1, 1], [75, 74]] });
  },
  'a request retried after a 529 and a 500': (run) => {
    expect(run.observed).toEqual({
      retries: [
        { attempt: 1, max_retries: 10, error_status: 529, error: 'overloaded' },
        { attempt: 2, max_retries: 10, error_status: 500, error: 'server_error' },
      ],
    });
    expect(run.requests).toHaveLength(3);
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, num_turns: 1 });
  },
  'a call denied without asking': (run) => {
    expect(run.observed).toEqual({ denied: { tool_name: 'Bash', tool_use_id: 'toolu_bash_1', sameText: true } });
    expect(toolResult(run.messages, 'toolu_bash_1')).toMatchObject({ is_error: true });
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, num_turns: 2 });
    expect(lastResult(run)?.permission_denials.map((d) => d.tool_name)).toEqual(['Bash']);
  },
  'structured output after a plain answer': (run) => {
    expect(run.observed).toEqual({ structuredOutput: { n: 1 } });
    const reminder = run.messages.find((m) => m.type === 'user' && JSON.stringify(m.message.content).includes('You MUST call the StructuredOutput tool'));
    expect(reminder).toBeDefined();
    expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false, terminal_reason: 'completed', num_turns: 3 });
  },
};

function toolResult(messages: readonly SDKMessage[], toolUseId: string): { is_error?: boolean; content?: unknown } | undefined {
  for (const m of messages) {
    if (m.type !== 'user' || typeof m.message.content === 'string') continue;
    for (const block of m.message.content) if (block.type === 'tool_result' && block.tool_use_id === toolUseId) return block;
  }
  return undefined;
}

/** The SDK ended on its own terms: no error, or its own error after an error result (never a crash inside it). */
function expectSdkEndedCleanly(run: ProgramRun): void {
  if (run.error === undefined) return;
  expect(run.error, 'the SDK threw something other than its error-result error').toMatch(/^Error: Claude Code returned an error result: /);
  expect(lastResult(run)?.is_error, 'the SDK threw, but the last result was not an error').toBe(true);
}

const runs = new Map<string, Partial<Record<EngineName, ProgramRun>>>();

describe.each(PROGRAMS.map((program) => [program.name, program] as const))('%s', (name, program: SdkProgram) => {
  beforeAll(async () => {
    const both: Partial<Record<EngineName, ProgramRun>> = {};
    for (const engine of ENGINES) both[engine] = await runProgram(program, engine);
    runs.set(name, both);
  });

  for (const engine of ENGINES) {
    it(`${engine}: the SDK ends cleanly and the program sees the facts`, () => {
      const run = runs.get(name)?.[engine];
      if (!run) throw new Error('no run');
      expectSdkEndedCleanly(run);
      expect(run.unrouted, 'requests the fake API has no route for').toEqual([]);
      FACTS[name](run);
    });
  }

  it('turnloop sends the same sequence of SDK messages as claude (up to the known differences)', () => {
    const { claude, turnloop } = runs.get(name) ?? {};
    if (!claude || !turnloop) throw new Error('no run');
    expect(comparableShapes(name, 'turnloop', turnloop.shapes)).toEqual(comparableShapes(name, 'claude', claude.shapes));
    expect(turnloop.observed).toEqual(claude.observed);
  });

  it('each known difference of this program is still seen (a fixed one must leave the list)', () => {
    const both = runs.get(name) ?? {};
    for (const engine of ENGINES) {
      const missing = differenceLines(name, engine).filter((line) => !both[engine]?.shapes.includes(line));
      expect(missing, `${engine} no longer sends these lines`).toEqual([]);
    }
  });
});

afterAll(() => {
  // The sequences side by side, for the conformance doc and for a failing run's log.
  if (process.env.PRINT_SHAPES !== '1') return;
  for (const [name, both] of runs) {
    console.log(`\n## ${name}`);
    for (const engine of ENGINES) console.log(`${engine} (${Math.round(both[engine]?.wallMs ?? 0)} ms):\n  ${both[engine]?.shapes.join('\n  ')}`);
  }
});

// Not side by side: the real claude refuses the bypass mode as root (the suite runs as root); turnloop runs it
// (Extension sdkBypassAsRoot). Each engine is held to its own behaviour.
describe('bypassPermissions as root', () => {
  it('claude refuses to start: the SDK reports the exit and the reason, no request is made', async () => {
    const run = await runProgram(bypassPermissions, 'claude');
    expect(run.error).toMatch(/exited with code 1.*cannot be used with root\/sudo privileges/);
    expect(run.requests).toEqual([]);
    expect(run.observed).toEqual({ fileCreated: false });
  });
  it('turnloop runs the Bash call without asking and succeeds', async () => {
    const run = await runProgram(bypassPermissions, 'turnloop');
    expectSdkEndedCleanly(run);
    expect(run.error).toBeUndefined();
    expect(run.observed).toEqual({ fileCreated: true });
    expect(run.shapes).toEqual([
      'system init',
      'system thinking_tokens',
      'assistant [thinking, tool_use Bash#0]',
      'user [tool_result#0]',
      'assistant [text]',
      'result success is_error=false terminal_reason=completed num_turns=2 denials=[]',
    ]);
  });
});

it('every program has its facts', () => {
  expect(PROGRAMS.map((p) => p.name).filter((n) => !FACTS[n])).toEqual([]);
  expect(Object.keys(KNOWN_DIFFERENCES).filter((n) => !PROGRAMS.some((p) => p.name === n))).toEqual([]);
});
