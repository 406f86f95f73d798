/**
 * Empty tool results as the model gets them, side by side (programs/conf-empty-results.ts): both engines word an
 * empty result by one rule for every tool, naming the tool (claude `completed`, turnloop `finished`: Extension
 * `ownMessageTexts`); a failed command with no output is its exit code on both.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { runProgram, type ProgramRun } from './harness/sdk-program.ts';
import { confEmptyResults } from './programs/conf-empty-results.ts';

const VERB: Record<EngineName, string> = { claude: 'completed', turnloop: 'finished' };

describe(confEmptyResults.name, () => {
  const runs = new Map<EngineName, ProgramRun>();
  beforeAll(async () => {
    for (const engine of ENGINES) runs.set(engine, await runProgram(confEmptyResults, engine));
  });

  it('Bash and an SDK MCP tool with no output: one rule naming the tool (before a cd\'s reminder too); a failed command: its exit code', () => {
    for (const engine of ENGINES) {
      const empty = (tool: string) => `(${tool} ${VERB[engine]} with no output)`;
      expect(runs.get(engine)!.error, engine).toBeUndefined();
      expect(runs.get(engine)!.observed.toModel, engine).toEqual([
        { id: 'toolu_true', isError: false, content: empty('Bash') },
        { id: 'toolu_false', isError: true, content: 'Exit code 1' },
        { id: 'toolu_cd', isError: false, content: `${empty('Bash')}\n\n<system-reminder>\n# Environment update\n - Primary working directory: <cwd>/sub (was <cwd>)\n</system-reminder>` },
        { id: 'toolu_mcp', isError: false, content: empty('mcp__quiet__nothing') },
        { id: 'toolu_mcp_empty', isError: false, content: empty('mcp__quiet__none') },
      ]);
    }
    expect(runs.get('turnloop')!.shapes).toEqual(runs.get('claude')!.shapes);
  });
});
