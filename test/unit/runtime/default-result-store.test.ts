/**
 * Every run's default deps share one store of oversized tool results (`src/runtime/default-deps.ts`, round 18): it
 * holds nothing of a run, and made per run it cost a `path.join` each run. Its pointers and writes are the ones a
 * fresh store gives.
 */
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const made = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src/context/result-store.ts', async (original) => {
  const actual = await original<typeof import('../../../src/context/result-store.ts')>();
  return {
    ...actual,
    createFileToolResultStore: (...args: Parameters<typeof actual.createFileToolResultStore>) => {
      made.count++;
      return actual.createFileToolResultStore(...args);
    },
  };
});

const handed = vi.hoisted(() => ({ stores: [] as unknown[] }));
vi.mock('../../../src/context/default-context-layers.ts', async (original) => {
  const actual = await original<typeof import('../../../src/context/default-context-layers.ts')>();
  return {
    ...actual,
    createContextLayerRunner: (options: Parameters<typeof actual.createContextLayerRunner>[0]) => {
      handed.stores.push(options.store);
      return actual.createContextLayerRunner(options);
    },
  };
});

const { createDefaultDeps } = await import('../../../src/runtime/default-deps.ts');
const { resolveConfig } = await import('../../../src/config/config.ts');
const { createFileToolResultStore } = await import('../../../src/context/result-store.ts');

describe('the default store of oversized tool results', () => {
  it('is made once, not once per run', () => {
    const before = made.count;
    const config = resolveConfig({ sessionId: 'store' });
    for (let i = 0; i < 3; i++) createDefaultDeps(config, { callModel: async function* () {} }, async () => ({ items: [], terminal: { reason: 'completed' } }));
    expect(made.count - before).toBe(0);
    expect(made.count).toBeLessThanOrEqual(1);
  });

  it('is the store the context layers of every run get, and points where a fresh one points', () => {
    const config = resolveConfig({ sessionId: 'store' });
    handed.stores.length = 0;
    for (let i = 0; i < 2; i++) createDefaultDeps(config, { callModel: async function* () {} }, async () => ({ items: [], terminal: { reason: 'completed' } }));
    expect(handed.stores).toHaveLength(2);
    expect(handed.stores[0]).toBe(handed.stores[1]);
    const shared = handed.stores[0] as ReturnType<typeof createFileToolResultStore>;
    const expected = join('.turnloop', 'sessions', 's', 'tool-results', 't.txt');
    expect(createFileToolResultStore().pointerFor('s', 't')).toBe(expected);
    expect(shared.pointerFor('s', 't')).toBe(expected);
  });
});
