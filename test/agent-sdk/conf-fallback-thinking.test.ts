/**
 * `thinking` after a fallback to claude-haiku-4-5 (no adaptive thinking), side by side
 * (programs/conf-fallback-thinking.ts): adaptive thinking becomes a budget of `max_tokens - 1`, a program's budget is
 * sent as given. claude's default `display` is left out of that compare (docs/agent-sdk-conformance.md). A program's
 * `thinking.display` is sent as claude sends it: `summarized` as given, `omitted` as `updates`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { runProgram, type ProgramRun } from './harness/sdk-program.ts';
import { confFallbackAdaptive, confFallbackBudget, confThinkingOmitted, confThinkingSummarized } from './programs/conf-fallback-thinking.ts';

type Request = { model: string; thinking: Record<string, unknown> | undefined; maxTokens: number };

const CASES = [
  { program: confFallbackAdaptive, fallback: (maxTokens: number) => ({ type: 'enabled', budget_tokens: maxTokens - 1 }) },
  { program: confFallbackBudget, fallback: () => ({ type: 'enabled', budget_tokens: 5000 }) },
];

for (const { program, fallback } of CASES) {
  describe(program.name, () => {
    const runs = new Map<EngineName, ProgramRun>();
    beforeAll(async () => {
      for (const engine of ENGINES) runs.set(engine, await runProgram(program, engine));
    });
    it('adaptive on the session model, then the fallback model\'s budget', () => {
      for (const engine of ENGINES) {
        expect(runs.get(engine)!.error, engine).toBeUndefined();
        const requests = (runs.get(engine)!.observed.requests as Request[]).map(({ model, thinking, maxTokens }) => {
          const { display: _display, ...rest } = thinking ?? {};
          return { model, thinking: rest, maxTokens };
        });
        const maxTokens = requests[0].maxTokens;
        expect(requests, engine).toEqual([
          ...Array(3).fill({ model: 'claude-sonnet-4-6', thinking: { type: 'adaptive' }, maxTokens }),
          { model: 'claude-haiku-4-5', thinking: fallback(requests[3].maxTokens), maxTokens: requests[3].maxTokens },
        ]);
      }
      expect(runs.get('turnloop')!.shapes).toEqual(runs.get('claude')!.shapes);
    });
  });
}

for (const [program, display] of [[confThinkingSummarized, 'summarized'], [confThinkingOmitted, 'updates']] as const) {
  describe(program.name, () => {
    const runs = new Map<EngineName, ProgramRun>();
    beforeAll(async () => {
      for (const engine of ENGINES) runs.set(engine, await runProgram(program, engine));
    });
    it(`the request's thinking carries display ${display}`, () => {
      for (const engine of ENGINES) expect(runs.get(engine)!.observed.thinking, engine).toEqual({ type: 'adaptive', display });
      expect(runs.get('turnloop')!.shapes).toEqual(runs.get('claude')!.shapes);
    });
  });
}
