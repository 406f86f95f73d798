/**
 * Hooks' words as the model and the program see them (issue #38), side by side (programs/parity-hook-texts.ts):
 * a PreToolUse command hook's exit 2, the callbacks' `additionalContext`, and PostToolUse's `duration_ms`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { runProgram, type ProgramRun } from './harness/sdk-program.ts';
import { parityHookTexts } from './programs/parity-hook-texts.ts';

/** The tool result's own text: claude appends its token-total reminder (the `sessionContextReminders` drift). */
const ownText = (content: unknown) => String(content).split('\n\n<system-reminder>')[0];

describe(parityHookTexts.name, () => {
  const runs = new Map<EngineName, ProgramRun>();
  const run = (engine: EngineName) => runs.get(engine)!;
  beforeAll(async () => {
    for (const engine of ENGINES) runs.set(engine, await runProgram(parityHookTexts, engine));
  });

  it('a PreToolUse command hook that exits 2 denies the call with claude\'s text, on both', () => {
    for (const engine of ENGINES) {
      expect(run(engine).error, engine).toBeUndefined();
      expect(ownText(run(engine).observed.denial), engine).toBe('PreToolUse:Bash hook error: [./hook.sh]: removing is not allowed here');
    }
    expect(run('turnloop').shapes).toEqual(run('claude').shapes);
  });

  it('the callbacks\' additionalContext reaches the model as claude\'s "hook additional context" reminders, on both', () => {
    for (const engine of ENGINES) {
      expect(run(engine).observed.contextTexts, engine).toEqual([
        '<system-reminder>\nPreToolUse:Bash hook additional context: pre-callback context\n</system-reminder>',
        '<system-reminder>\nPostToolUse:Bash hook additional context: post-callback context\n</system-reminder>',
      ]);
    }
  });

  it('PostToolUse\'s input carries duration_ms (a number), on both', () => {
    const keys = 'cwd,duration_ms,effort,hook_event_name,permission_mode,prompt_id,session_id,tool_input,tool_name,tool_response,tool_use_id,transcript_path';
    for (const engine of ENGINES) expect(run(engine).observed.postInputs, engine).toEqual([{ keys, durationType: 'number' }]);
  });
});
