/**
 * Bash's working directory across calls (issue #38), side by side (programs/parity-bash-cwd.ts): claude 2.1.334
 * keeps a `cd` for the next call and for a subagent's calls, and undoes a `cd` out of the project with a line in the
 * result; turnloop does the same.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { runProgram, type ProgramRun } from './harness/sdk-program.ts';
import { parityBashCwd } from './programs/parity-bash-cwd.ts';

describe(parityBashCwd.name, () => {
  const runs = new Map<EngineName, ProgramRun>();
  beforeAll(async () => {
    for (const engine of ENGINES) runs.set(engine, await runProgram(parityBashCwd, engine));
  });

  it('a cd is kept for the next call and the subagent, and a cd out of the project is undone with the same words', () => {
    const expected = {
      toolu_cd: { content: '<cwd>/sub', is_error: false },
      toolu_pwd: { content: '<cwd>/sub\nin sub', is_error: false },
      toolu_sub_pwd: { content: '<cwd>/sub', is_error: false },
      toolu_pwd_after_agent: { content: '<cwd>/sub', is_error: false },
      toolu_leave: { content: '/tmp\nShell cwd was reset to <cwd>', is_error: false },
      toolu_back: { content: '<cwd>\nat the top', is_error: false },
    };
    for (const engine of ENGINES) {
      const run = runs.get(engine)!;
      expect(run.error, engine).toBeUndefined();
      expect(run.observed.results, engine).toEqual(expected);
    }
  });

  it('a call that moved the shell ends with claude\'s "Environment update" reminder (the new directory and the old), on both', () => {
    const update = (now: string, was: string) => [`<system-reminder>\n# Environment update\n - Primary working directory: ${now} (was ${was})\n</system-reminder>`];
    for (const engine of ENGINES) {
      expect(runs.get(engine)!.observed.environmentUpdates, engine).toEqual({ toolu_cd: update('<cwd>/sub', '<cwd>'), toolu_leave: update('<cwd>', '<cwd>/sub') });
    }
  });
});
