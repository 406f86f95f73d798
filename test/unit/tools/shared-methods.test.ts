/**
 * A run builds its tool runtime and registry, and the interpreter calls them on every turn: their methods are
 * functions shared by every runtime and registry, not closures made per run, whose optimized code a full GC after
 * the run would throw away (docs/architecture.md, "Shapes that outlive a run"). The sharing is what this holds; the
 * behaviour the methods keep is held by the other tests of this folder.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolRuntime } from '../../../src/tools/create-tool-runtime.ts';
import { defineTool } from '../../../src/tools/define-tool.ts';
import { createRefreshingToolRegistry, createToolRegistry } from '../../../src/tools/registry.ts';

const echo = defineTool({ name: 'echo', description: 'Echo.', inputSchema: z.object({ text: z.string() }), isConcurrencySafe: () => true, call: ({ text }) => ({ content: text }) });

describe('tool runtimes and registries share their methods', () => {
  it('two runtimes have the same method functions, and each answers for its own tools', () => {
    const a = createToolRuntime({ tools: [echo] });
    const b = createToolRuntime({ tools: [] });
    for (const method of ['definitions', 'concurrencySafe', 'isIdempotent', 'runBatches', 'startStreaming'] as const) {
      expect(typeof a[method]).toBe('function');
      expect(a[method]).toBe(b[method]);
    }
    expect(a.definitions().map((d) => d.name)).toEqual(['echo']);
    expect(b.definitions()).toEqual([]);
    const toolUse = { type: 'tool_use' as const, id: 't1', name: 'echo', input: { text: 'hi' } };
    expect(a.concurrencySafe([toolUse])).toEqual({ t1: true });
    expect(b.concurrencySafe([toolUse])).toEqual({ t1: false });
  });

  it('two registries, fixed or refreshing, have the same method functions', () => {
    const fixed = [createToolRegistry([echo]), createToolRegistry([])];
    const refreshing = [createRefreshingToolRegistry(() => [echo]), createRefreshingToolRegistry(() => [])];
    for (const method of ['find', 'concurrencySafeFor', 'definitionsForModel'] as const) {
      expect(fixed[0][method]).toBe(fixed[1][method]);
      expect(refreshing[0][method]).toBe(refreshing[1][method]);
    }
    expect(fixed[0].find('echo')).toBe(echo);
    expect(fixed[1].find('echo')).toBeUndefined();
    expect(refreshing[0].tools).toEqual([echo]);
    expect(refreshing[0].definitionsForModel().map((d) => d.name)).toEqual(['echo']);
  });
});
