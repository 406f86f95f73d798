/**
 * Settings files as claude 2.1.334 applies them (issue #38): command hooks, `env`, `permissions.additionalDirectories`,
 * the `settings_not_in_effect` warning for bad values, and the "always allow" rules suggested for compound and
 * multi-word commands. Each program (programs/settings-hooks.ts, programs/settings-suggestions.ts) runs against the
 * real `claude` and against `turnloop` on one fake-API script, inside the loopback-only namespace (run-offline.sh);
 * the facts below are what claude showed (docs/agent-sdk-conformance.md), and turnloop must show the same messages
 * (harness/message-shape.ts, up to known-differences.ts) and observe the same hooks run, files written and rules.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { runProgram, type ProgramRun, type SdkProgram } from './harness/sdk-program.ts';
import { comparableShapes } from './known-differences.ts';
import { settingsBadDirectories, settingsBadEnv, settingsBadHookEntry, settingsBadHooks, settingsCommandHooks, settingsEnvAndDirectories, settingsEventHooks, settingsHookTimeout } from './programs/settings-hooks.ts';
import { settingsCompoundSuggestions } from './programs/settings-suggestions.ts';

const lastResult = (run: ProgramRun) => run.messages.filter((m): m is SDKResultMessage => m.type === 'result').at(-1);
const warned = { tag: 'settings_not_in_effect', level: 'warning', namesField: true };

const FACTS: ReadonlyArray<[SdkProgram, (run: ProgramRun) => void]> = [
  [settingsCommandHooks, (run) => {
    // PreToolUse before each call, PostToolUse after each call that ran; the exit-2 hook denied `rm` (its stderr
    // reached the model, a permission_denials entry); the exit-1 hook changed nothing and its stderr stayed out.
    expect(run.observed).toMatchObject({
      hookInputs: [
        { event: 'PreToolUse', command: 'touch a.txt', toolUseId: 'toolu_touch', cwd: true, session: true, response: false },
        { event: 'PostToolUse', command: 'touch a.txt', response: true },
        { event: 'PreToolUse', command: 'rm -f gone.txt' },
        { event: 'PreToolUse', command: 'echo false-exit > b.txt' },
        { event: 'PostToolUse', command: 'echo false-exit > b.txt' },
      ],
      hookEnv: ['<cwd>|<cwd>|from-settings'],
      files: { a: true, gone: true, b: true },
      contextReachedModel: { pre: true, post: true, reasonOfDenial: true, failedHookStderr: false },
      result: { subtype: 'success', denials: ['toolu_rm'] },
    });
  }],
  [settingsHookTimeout, (run) => {
    expect(run.observed).toEqual({ underTwentySeconds: true, written: true, warnings: [{ tag: 'hook_no_verdict', level: 'warning', hook_no_verdict: { hook_event: 'PreToolUse', tool_use_id: 'toolu_sleepy', timed_out: true } }] });
  }],
  [settingsEventHooks, (run) => {
    // UserPromptSubmit's plain stdout is context from the first request on; PostToolUse's exit 2 shows its stderr to
    // the model after the call; Stop's exit 2 (while stop_hook_active is false) gives the model another turn.
    expect(run.observed).toEqual({ requests: 3, promptContext: [true, true, true], postReason: [false, true, true], stopReason: [false, false, true], written: true, result: { text: 'Second answer.', turns: 3 } });
  }],
  [settingsEnvAndDirectories, (run) => {
    // The settings' FOO wins over the process's; CLAUDE_PROJECT_DIR is set for hooks only; the directory is not in init.
    expect(run.observed).toEqual({ asked: ['Bash'], env: 'from-settings|2|', sharedRead: { isError: false, text: true }, initDirectories: [] });
  }],
  [settingsBadEnv, (run) => expect(run.observed).toEqual({ asked: ['touch allowed.txt'], warning: warned })],
  [settingsBadHooks, (run) => expect(run.observed).toEqual({ asked: [], warning: warned })],
  [settingsBadHookEntry, (run) => expect(run.observed).toEqual({ asked: ['touch allowed.txt'], warning: warned })],
  [settingsBadDirectories, (run) => expect(run.observed).toEqual({ asked: ['touch allowed.txt'], warning: warned })],
  [settingsCompoundSuggestions, (run) => {
    const rules = (...ruleContent: string[]) => [{ type: 'addRules', rules: ruleContent.map((c) => ({ toolName: 'Bash', ruleContent: c })), behavior: 'allow', destination: 'localSettings' }];
    expect(run.observed).toEqual({
      asked: [{ command: 'mkdir -p build && touch build/x.txt', suggestions: rules('mkdir -p build', 'touch build/x.txt') }, { command: 'git init -q first', suggestions: rules('git init *') }],
      settingsLocal: { permissions: { allow: ['Bash(mkdir -p build)', 'Bash(touch build/x.txt)', 'Bash(git init *)'] } },
      ran: [true, true, true],
    });
  }],
];

describe.each(FACTS.map(([program, facts]) => [program.name, program, facts] as const))('%s', (name, program, facts) => {
  const runs: Partial<Record<EngineName, ProgramRun>> = {};
  beforeAll(async () => {
    for (const engine of ENGINES) runs[engine] = await runProgram(program, engine);
  });

  for (const engine of ENGINES) {
    it(`${engine}: the SDK ends cleanly and the program sees the facts`, () => {
      const run = runs[engine];
      if (!run) throw new Error('no run');
      expect(run.error).toBeUndefined();
      expect(run.unrouted).toEqual([]);
      expect(lastResult(run)).toMatchObject({ subtype: 'success', is_error: false });
      facts(run);
    });
  }

  it('turnloop sends the same sequence of SDK messages as claude and observes the same', () => {
    const { claude, turnloop } = runs;
    if (!claude || !turnloop) throw new Error('no run');
    expect(comparableShapes(name, 'turnloop', turnloop.shapes)).toEqual(comparableShapes(name, 'claude', claude.shapes));
    expect(turnloop.observed).toEqual(claude.observed);
  });
});
