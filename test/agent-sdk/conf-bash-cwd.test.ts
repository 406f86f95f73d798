/**
 * When the shell's move is told to the model (issue #38), side by side (programs/conf-bash-cwd.ts): claude 2.1.334
 * appends its "Environment update" reminder to a call that left the shell elsewhere, none to one that ended where
 * it began, and keeps no `cd` of a command that failed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { runProgram, type ProgramRun } from './harness/sdk-program.ts';
import { confBashCwd } from './programs/conf-bash-cwd.ts';

describe(confBashCwd.name, () => {
  const runs = new Map<EngineName, ProgramRun>();
  beforeAll(async () => {
    for (const engine of ENGINES) runs.set(engine, await runProgram(confBashCwd, engine));
  });

  it('a reminder only where the shell moved, and a failed command\'s cd is not kept, on both', () => {
    const update = ['<system-reminder>\n# Environment update\n - Primary working directory: <cwd>/sub (was <cwd>)\n</system-reminder>'];
    const expected = {
      toolu_cd: { output: '<cwd>/sub', is_error: false, update },
      toolu_same: { output: '<cwd>/sub', is_error: false, update: [] },
      toolu_there_and_back: { output: '<cwd>/sub', is_error: false, update: [] },
      toolu_cd_then_fail: { output: 'Exit code 1', is_error: true, update: [] },
      toolu_where: { output: '<cwd>/sub', is_error: false, update: [] },
    };
    for (const engine of ENGINES) {
      const run = runs.get(engine)!;
      expect(run.error, engine).toBeUndefined();
      expect(run.observed.results, engine).toEqual(expected);
    }
    expect(runs.get('turnloop')!.shapes).toEqual(runs.get('claude')!.shapes);
  });
});
