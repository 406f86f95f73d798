/**
 * A resumed session whose shell had moved, side by side (programs/conf-resume-cwd.ts): the shell starts in the
 * project again, and the first prompt after the resume opens with the `# Environment update` reminder naming the
 * project and where the shell was; none when the shell ended in the project.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { runProgram, type ProgramRun } from './harness/sdk-program.ts';
import { confResumeMoved, confResumeStayed } from './programs/conf-resume-cwd.ts';

const CASES = [
  { program: confResumeMoved, promptTexts: ['<system-reminder>\n# Environment update\n - Primary working directory: <cwd> (was <cwd>/sub)\n</system-reminder>', 'Where are you?'] },
  { program: confResumeStayed, promptTexts: ['Where are you?'] },
];

for (const { program, promptTexts } of CASES) {
  describe(program.name, () => {
    const runs = new Map<EngineName, ProgramRun>();
    beforeAll(async () => {
      for (const engine of ENGINES) runs.set(engine, await runProgram(program, engine));
    });
    it('the resumed shell is in the project; the next prompt says where it was only if it had moved', () => {
      for (const engine of ENGINES) {
        expect(runs.get(engine)!.error, engine).toBeUndefined();
        expect(runs.get(engine)!.observed, engine).toEqual({ promptTexts, pwd: ['<cwd>'] });
      }
      expect(runs.get('turnloop')!.shapes).toEqual(runs.get('claude')!.shapes);
    });
  });
}
