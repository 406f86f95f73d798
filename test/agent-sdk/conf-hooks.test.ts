/**
 * Hook events claude 2.1.334 runs that turnloop once did not run or ran short (issue #38), side by side:
 * SessionStart command hooks from the settings (programs/conf-session-start.ts) and PostToolUseFailure's input
 * (programs/conf-tool-failure.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { runProgram, type ProgramRun } from './harness/sdk-program.ts';
import { confSessionStart } from './programs/conf-session-start.ts';
import { confToolFailure } from './programs/conf-tool-failure.ts';

function runsOf(program: Parameters<typeof runProgram>[0]) {
  const runs = new Map<EngineName, ProgramRun>();
  beforeAll(async () => {
    for (const engine of ENGINES) runs.set(engine, await runProgram(program, engine));
  });
  return (engine: EngineName) => runs.get(engine)!;
}

const STARTUP_KEYS = 'session_id,transcript_path,cwd,hook_event_name,source';
/** What claude adds to a resume's input; turnloop does not estimate the cache and context of a resumed session. */
const CLAUDE_RESUME_EXTRAS = 'seconds_since_last_response,context_tokens,prompt_cache_likely_expired,estimated_cache_write_usd';

describe(confSessionStart.name, () => {
  const run = runsOf(confSessionStart);

  it('each hook gets the session\'s id, log and directory with source startup, then resume (the resume matcher only then)', () => {
    const input = (source: string, keys: string) => ({ keys, source, sessionIdIsTheSession: true, cwdIsTheProject: true, transcriptNamesTheSession: true });
    for (const engine of ENGINES) {
      expect(run(engine).error, engine).toBeUndefined();
      const resumeKeys = engine === 'claude' ? `${STARTUP_KEYS},${CLAUDE_RESUME_EXTRAS}` : STARTUP_KEYS;
      const both = [input('startup', STARTUP_KEYS), input('resume', resumeKeys)];
      expect(run(engine).observed.inputs, engine).toEqual({ plain: both, json: both, failing: both, resumeOnly: [input('resume', resumeKeys)] });
      expect(run(engine).observed.stdinEndsWithNewline, engine).toBe(true);
    }
  });

  it('plain stdout and a JSON additionalContext open the first prompt as claude\'s reminders, in the hooks\' order; a resume adds nothing', () => {
    const reminders = [
      '<system-reminder>\nSessionStart:startup hook success: plain context\n</system-reminder>',
      '<system-reminder>\nSessionStart hook additional context: json context\n</system-reminder>',
    ];
    for (const engine of ENGINES) {
      expect(run(engine).observed.firstRequest, engine).toEqual(reminders);
      // The resumed request carries the first prompt's reminders (its history) and none of the resume's hooks.
      expect(run(engine).observed.resumedRequest, engine).toEqual(reminders);
    }
  });

  it('a program\'s SessionStart callback is not called (claude runs SessionStart from settings files only)', () => {
    for (const engine of ENGINES) expect(run(engine).observed.callbacks, engine).toBe(0);
    expect(run('turnloop').shapes).toEqual(run('claude').shapes);
  });
});

describe(confToolFailure.name, () => {
  const run = runsOf(confToolFailure);

  it('a PostToolUseFailure callback alone runs, for a failed command and a thrown Read, and its input carries duration_ms', () => {
    const keys = 'session_id,transcript_path,cwd,prompt_id,permission_mode,effort,hook_event_name,tool_name,tool_input,tool_use_id,error,is_interrupt,duration_ms';
    const expected = ['Bash', 'Read'].map((tool) => ({ tool, keys, durationType: 'number', isInterrupt: false }));
    for (const engine of ENGINES) {
      expect(run(engine).error, engine).toBeUndefined();
      expect(run(engine).observed.callback, engine).toEqual(expected);
      expect(run(engine).observed.command, engine).toEqual(expected);
    }
    expect(run('turnloop').shapes).toEqual(run('claude').shapes);
  });
});
