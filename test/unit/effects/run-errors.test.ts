/**
 * One error route for both drivers (`LoopOptions.onError`, src/drivers/run-core.ts): a failed executor (its fallback
 * is fed), an optional answer that failed, a fire-and-forget hook that threw, an observer that threw. Each reaches
 * `onError(error, { raisedBy, effect })`; without one, each becomes the warning item a failed executor always gave.
 * Before, the optional answer and the hook were dropped in silence and the observer's error ended the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import { durableQuery, MemoryJournal } from '../../../src/durable/index.ts';
import { query } from '../../../src/api/query.ts';
import type { QueryOptions } from '../../../src/api/run-options.ts';
import type { RunErrorContext } from '../../../src/runtime/query-options.ts';
import { collectToEnd } from '../../../src/drivers/run-loop.ts';
import { replay } from '../../../src/replay/index.ts';
import { scriptedModelCaller, scriptedToolRuntime } from '../../../src/replay/scripted-deps.ts';
import { toolTurns } from '../replay/fixtures.ts';

const DRIVERS = {
  query: (options: QueryOptions) => collectToEnd(query(options)),
  durable: (options: QueryOptions) => collectToEnd(durableQuery({ ...options, journal: new MemoryJournal() })),
};

function options(extra: Partial<QueryOptions>): QueryOptions {
  const script = toolTurns(2);
  let ids = 0;
  return {
    prompt: 'Read the files.',
    config: resolveConfig({ sessionId: 'run-errors', features: { toolUseSummaries: true } }),
    tools: scriptedToolRuntime(script.tools),
    ...extra,
    deps: {
      callModel: scriptedModelCaller(script.model),
      newId: () => `id-${++ids}`,
      clock: { now: () => 1_700_000_000_000, sleep: async () => undefined },
      ...extra.deps,
    },
  };
}

const warningsOf = (items: Array<{ type: string }>) =>
  items.filter((item) => item.type === 'system' && (item as { subtype?: string }).subtype === 'warning').map((item) => (item as unknown as { content: string }).content);

/** Hooks, layers and observers that fail once each, the way each route failed before. */
function failing() {
  let observed = false;
  return {
    // An executor with a fallback: the first context layer throws.
    runContextLayer: (input: { layer: string }) => {
      if (input.layer === 'tool_result_budget') throw new Error('layer broke');
      return { edits: [], tokensFreed: 0 };
    },
    // An optional answer: the tool-use summary fails (no fallback; dropped in silence before).
    summarizeToolUses: async () => {
      throw new Error('summary broke');
    },
    // A fire-and-forget hook (its failure was dropped in silence before).
    postSamplingHooks: [
      () => {
        throw new Error('hook broke');
      },
    ],
    // An observer (its error ended the run before).
    onStep: () => {
      if (observed) return;
      observed = true;
      throw new Error('observer broke');
    },
  };
}

describe('one error route', () => {
  for (const [name, run] of Object.entries(DRIVERS)) {
    it(`${name}: every error reaches onError with who raised it and the effect, and the run ends as usual`, async () => {
      const seen: Array<{ message: string } & RunErrorContext> = [];
      const f = failing();
      const { terminal, items } = await run(
        options({
          postSamplingHooks: f.postSamplingHooks,
          onStep: f.onStep,
          onError: (error, context) => seen.push({ message: (error as Error).message, ...context }),
          deps: { runContextLayer: f.runContextLayer as never, summarizeToolUses: f.summarizeToolUses },
        }),
      );
      expect(terminal).toEqual({ reason: 'completed' });
      // Taken by onError: no warning item.
      expect(warningsOf(items)).toEqual([]);
      const first = (message: string) => seen.find((s) => s.message === message);
      expect(first('layer broke')).toMatchObject({ raisedBy: 'executor', effect: { type: 'context_layer', layer: 'tool_result_budget' } });
      expect(first('summary broke')).toMatchObject({ raisedBy: 'executor', effect: { type: 'start_tool_use_summary' } });
      expect(first('observer broke')).toMatchObject({ raisedBy: 'observer', effect: null });
      // Fire-and-forget: started after the step, it may fail after later steps; it is told all the same.
      await vi.waitFor(() => expect(first('hook broke')).toMatchObject({ raisedBy: 'hook', effect: { type: 'run_post_sampling_hooks' } }));
    });

    it(`${name}: without onError, each becomes a warning item (the default), and the run ends as usual`, async () => {
      const f = failing();
      const { terminal, items } = await run(
        options({ onStep: f.onStep, deps: { runContextLayer: f.runContextLayer as never, summarizeToolUses: f.summarizeToolUses } }),
      );
      expect(terminal).toEqual({ reason: 'completed' });
      const warnings = warningsOf(items);
      for (const message of ['layer broke', 'summary broke', 'observer broke']) expect(warnings).toContain(`internal error: ${message}`);
    });
  }

  it('a handler that throws does not lose the error: it is shown as by default', async () => {
    const f = failing();
    const { items } = await DRIVERS.query(
      options({
        onError: () => {
          throw new Error('handler broke');
        },
        deps: { runContextLayer: f.runContextLayer as never },
      }),
    );
    expect(warningsOf(items)).toContain('internal error: layer broke');
  });

  it('query() and durableQuery() refuse an unknown option alike, naming the callee', async () => {
    await expect(DRIVERS.query({ ...options({}), onErorr: () => undefined } as never)).rejects.toThrow("query(): 'onErorr' is not an option; did you mean 'onError'?");
    await expect(DRIVERS.durable({ ...options({}), onErorr: () => undefined } as never)).rejects.toThrow("durableQuery(): 'onErorr' is not an option; did you mean 'onError'?");
  });
});

describe("durableQuery() takes query()'s boundary options", () => {
  it('record: the durable run is recorded as a session log that replays to its terminal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-durable-record-'));
    try {
      const path = join(dir, 'run.jsonl');
      const { terminal } = await DRIVERS.durable(options({ record: path }));
      expect(terminal).toEqual({ reason: 'completed' });
      expect(replay(path).terminal).toEqual(terminal);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
