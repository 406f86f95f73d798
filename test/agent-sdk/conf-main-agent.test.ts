/**
 * The SDK's `agent` option (the main thread as one of the program's agents), side by side
 * (programs/conf-main-agent.ts): the agent's prompt closes the system prompt, the tools offered and listed in `init`
 * are the agent's (less its disallowed ones), and the session's model stays.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { runProgram, type ProgramRun } from './harness/sdk-program.ts';
import { confMainAgent, confMainAgentModel, confMainAgentUnknown } from './programs/conf-main-agent.ts';

function runsOf(program: Parameters<typeof runProgram>[0]) {
  const runs = new Map<EngineName, ProgramRun>();
  beforeAll(async () => {
    for (const engine of ENGINES) runs.set(engine, await runProgram(program, engine));
  });
  return (engine: EngineName) => runs.get(engine)!;
}

interface Seen { systemBlocks: string[]; tools: string[]; model: string; init: { tools: string[]; model: string; agents: string[] } }

describe(confMainAgent.name, () => {
  const run = runsOf(confMainAgent);
  it('the agent\'s prompt closes the system prompt; only its tools are offered and listed; the session\'s model', () => {
    for (const engine of ENGINES) {
      expect(run(engine).error, engine).toBeUndefined();
      const seen = run(engine).observed as unknown as Seen;
      expect(seen.systemBlocks.at(-1), engine).toBe('You are REVIEWER-PROMPT.');
      expect(seen.tools, engine).toEqual(['Grep', 'Read']);
      expect([...seen.init.tools].sort(), engine).toEqual(['Grep', 'Read']);
      expect(seen.init.agents, engine).toContain('reviewer');
      expect([seen.model, seen.init.model], engine).toEqual([seen.model, seen.model]);
    }
    expect(run('turnloop').observed.model).toBe(run('claude').observed.model);
    expect(run('turnloop').shapes).toEqual(run('claude').shapes);
  });
});

describe(confMainAgentModel.name, () => {
  const run = runsOf(confMainAgentModel);
  it('the agent\'s disallowed Bash is not offered; the session\'s model wins over the agent\'s', () => {
    for (const engine of ENGINES) {
      expect(run(engine).error, engine).toBeUndefined();
      const seen = run(engine).observed as unknown as Seen;
      expect(seen.tools, engine).not.toContain('Bash');
      expect(seen.tools, engine).toEqual(expect.arrayContaining(['Agent', 'Edit', 'Read', 'Write']));
      expect(seen.init.tools, engine).not.toContain('Bash');
      expect(seen.systemBlocks.at(-1), engine).toBe('You are REVIEWER-PROMPT.');
    }
    expect(run('turnloop').observed.model).toBe(run('claude').observed.model);
    expect(run('turnloop').observed.model).not.toMatch(/haiku/);
    expect(run('turnloop').shapes).toEqual(run('claude').shapes);
  });
});

describe(confMainAgentUnknown.name, () => {
  const run = runsOf(confMainAgentUnknown);
  it('the main thread runs as itself: no agent prompt, every tool (turnloop names the agent on stderr)', () => {
    for (const engine of ENGINES) {
      expect(run(engine).error, engine).toBeUndefined();
      const seen = run(engine).observed as unknown as Seen;
      expect(seen.systemBlocks.join('\n'), engine).not.toContain('REVIEWER-PROMPT');
      expect(seen.tools, engine).toEqual(expect.arrayContaining(['Agent', 'Bash', 'Edit', 'Read', 'Write']));
    }
    expect(run('turnloop').stderr).toContain('--agent nobody: no such agent');
    expect(run('turnloop').shapes).toEqual(run('claude').shapes);
  });
});
