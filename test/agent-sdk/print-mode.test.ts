/**
 * `claude -p` / `turnloop -p` as shell pipelines run them, in text and json, on a text answer and on an API error
 * ending (the exit status as claude's: 0, then 1 after an error result). Same namespace and fake API as the SDK
 * programs (run-offline.sh).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type EngineName } from './harness/engines.ts';
import type { FakeScriptInput } from './harness/fake-api.ts';
import { runPrintMode, type PrintRun } from './harness/print-mode.ts';
import { text } from './programs/script-parts.ts';

const ANSWER = 'The answer is 4.';

type CaseName = 'text answer' | 'API error ending';
const CASES: Record<CaseName, { script: FakeScriptInput; exitCode: number }> = {
  'text answer': { script: { model: [text(ANSWER)] }, exitCode: 0 },
  'API error ending': { script: { model: [{ status: 403 }] }, exitCode: 1 },
};
const FORMATS = ['text', 'json'] as const;

/** The fields of json output a pipeline reads (not ids, times, costs). */
function jsonFacts(run: PrintRun) {
  const parsed = JSON.parse(run.stdout) as Record<string, unknown>;
  const { type, subtype, is_error, terminal_reason, num_turns, permission_denials } = parsed;
  return { type, subtype, is_error, terminal_reason, num_turns, permission_denials, resultIsText: typeof parsed.result === 'string', exitCode: run.exitCode };
}

const runs = new Map<string, PrintRun>();
const key = (engine: EngineName, name: CaseName, format: string) => `${engine} ${name} ${format}`;

beforeAll(async () => {
  for (const engine of ENGINES) {
    for (const [name, { script }] of Object.entries(CASES)) {
      for (const format of FORMATS) runs.set(key(engine, name as CaseName, format), await runPrintMode(engine, script, 'What is 2 + 2?', format));
    }
  }
});

describe.each(Object.keys(CASES) as CaseName[])('-p with %s', (name) => {
  for (const engine of ENGINES) {
    it(`${engine} -p --output-format text prints the answer and exits as claude does`, () => {
      const run = runs.get(key(engine, name, 'text'))!;
      expect(run.exitCode).toBe(CASES[name].exitCode);
      if (name === 'text answer') expect(run.stdout).toBe(`${ANSWER}\n`);
      else expect(run.stdout).toMatch(/403/);
    });
    it(`${engine} -p --output-format json prints one result object`, () => {
      const run = runs.get(key(engine, name, 'json'))!;
      expect(run.stdout.trim().split('\n')).toHaveLength(1);
      const facts = jsonFacts(run);
      expect(facts).toMatchObject({ type: 'result', subtype: 'success', num_turns: 1, resultIsText: true, exitCode: CASES[name].exitCode });
      if (name === 'text answer') expect(JSON.parse(run.stdout).result).toBe(ANSWER);
      else expect(facts.terminal_reason).toBe('api_error');
    });
  }
  it('turnloop -p json has the same result fields as claude -p json', () => {
    expect(jsonFacts(runs.get(key('turnloop', name, 'json'))!)).toEqual(jsonFacts(runs.get(key('claude', name, 'json'))!));
  });
});
