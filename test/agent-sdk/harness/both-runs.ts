/** One program run on each engine before a describe block's tests, read back by engine. */
import { beforeAll } from 'vitest';
import { ENGINES, type EngineName } from './engines.ts';
import { runProgram, type ProgramRun, type SdkProgram } from './sdk-program.ts';

export function bothRuns(program: SdkProgram): (engine: EngineName) => ProgramRun {
  const runs = new Map<EngineName, ProgramRun>();
  beforeAll(async () => {
    for (const engine of ENGINES) runs.set(engine, await runProgram(program, engine));
  });
  return (engine) => {
    const run = runs.get(engine);
    if (!run) throw new Error(`no ${engine} run`);
    return run;
  };
}
