/**
 * The SDK's `skills` option (the allow-list of skills offered), side by side (programs/conf-skills.ts): `init` lists
 * every skill of the sources, the model's list holds the allowed ones, and the Skill tool refuses the others with
 * claude's text; `'all'` offers every one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { runProgram, type ProgramRun } from './harness/sdk-program.ts';
import { confSkillsAll, confSkillsListed, confSkillsNone } from './programs/conf-skills.ts';

function runsOf(program: Parameters<typeof runProgram>[0]) {
  const runs = new Map<EngineName, ProgramRun>();
  beforeAll(async () => {
    for (const engine of ENGINES) runs.set(engine, await runProgram(program, engine));
  });
  return (engine: EngineName) => runs.get(engine)!;
}

const refused = (name: string) => ({ id: `toolu_${name}`, isError: true, text: `<tool_use_error>Skill ${name} is not in this session's skills allowlist</tool_use_error>` });
const launched = (name: string) => ({ id: `toolu_${name}`, isError: false, text: `Launching skill: ${name}` });

const CASES = [
  { program: confSkillsListed, offered: { greet: true, shout: false }, results: [refused('shout'), launched('greet')] },
  { program: confSkillsAll, offered: { greet: true, shout: true }, results: [launched('shout'), launched('greet')] },
  { program: confSkillsNone, offered: { greet: false, shout: false }, results: [refused('shout'), refused('greet')] },
];

for (const { program, offered, results } of CASES) {
  describe(program.name, () => {
    const run = runsOf(program);
    it('init lists both skills; the model is offered and given only the allowed ones; the others are refused', () => {
      for (const engine of ENGINES) {
        expect(run(engine).error, engine).toBeUndefined();
        expect(run(engine).observed, engine).toEqual({
          initSkills: ['greet', 'shout'],
          initCommands: ['greet', 'shout'],
          listedToModel: offered,
          results,
          skillToolOffered: true,
          bodiesToModel: offered,
        });
      }
      expect(run('turnloop').shapes).toEqual(run('claude').shapes);
    });
  });
}
