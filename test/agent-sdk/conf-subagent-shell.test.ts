/**
 * A subagent's shell and its tool hooks (issue #38), side by side (programs/conf-subagent-shell.ts): claude 2.1.334
 * starts each of a subagent's Bash calls where the main thread's shell is and keeps none of its `cd`s, tells no
 * "Environment update" inside the subagent, runs the program's PreToolUse and PostToolUse hooks for the subagent's
 * calls (their input naming the subagent), and gives every hook input the main thread's shell directory as `cwd`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { runProgram, type ProgramRun } from './harness/sdk-program.ts';
import { confSubagentShell } from './programs/conf-subagent-shell.ts';

describe(confSubagentShell.name, () => {
  const runs = new Map<EngineName, ProgramRun>();
  beforeAll(async () => {
    for (const engine of ENGINES) runs.set(engine, await runProgram(confSubagentShell, engine));
  });

  it('the subagent starts in the main thread\'s directory, its cd lasts one call, and the main thread stays put', () => {
    const expected = {
      toolu_cd: { output: '<cwd>/sub', updates: 1 },
      toolu_sub_pwd: { output: '<cwd>/sub', updates: 0 },
      toolu_sub_cd: { output: '<cwd>/sub/deeper', updates: 0 },
      toolu_sub_again: { output: '<cwd>/sub', updates: 0 },
      toolu_main_pwd: { output: '<cwd>/sub', updates: 0 },
    };
    for (const engine of ENGINES) {
      expect(runs.get(engine)!.error, engine).toBeUndefined();
      expect(runs.get(engine)!.observed.results, engine).toEqual(expected);
    }
    expect(runs.get('turnloop')!.shapes).toEqual(runs.get('claude')!.shapes);
  });

  it('tool hooks run for the subagent\'s calls, naming it, and every hook input\'s cwd is the main thread\'s shell', () => {
    const main = (where: string) => [`PreToolUse in ${where}`, 'PostToolUse in <cwd>/sub'];
    const bySubagent = ['PreToolUse in <cwd>/sub by general-purpose', 'PostToolUse in <cwd>/sub by general-purpose'];
    const expected = {
      toolu_cd: main('<cwd>'),
      toolu_agent: main('<cwd>/sub'),
      toolu_sub_pwd: bySubagent,
      toolu_sub_cd: bySubagent,
      toolu_sub_again: bySubagent,
      toolu_main_pwd: main('<cwd>/sub'),
    };
    for (const engine of ENGINES) expect(runs.get(engine)!.observed.hookInputs, engine).toEqual(expected);
  });
});
