/**
 * The published entry point: `npm install` builds `dist/` (the `prepare` script), and plain Node (no TypeScript
 * loader) can import it and run a loop. Guards against a build that drops an export or a runtime asset.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as source from '../../src/index.ts';

const distEntry = new URL('../../dist/index.js', import.meta.url);

describe('the built package (dist/)', () => {
  it('exists after install and exports what src/index.ts exports', async () => {
    expect(existsSync(distEntry), 'run `npm run build` (npm install does it)').toBe(true);
    const built = (await import(distEntry.href)) as typeof source;
    expect(Object.keys(built).sort()).toEqual(Object.keys(source).sort());
  });

  it('runs a tool-using loop against the loopback fake API', async () => {
    const built = (await import(distEntry.href)) as typeof source;
    const api = await built.startFakeAnthropicApi({
      model: [
        { content: [{ type: 'tool_use', id: 'toolu_1', name: 'echo', input: { text: 'hi' } }] },
        { content: [{ type: 'text', text: 'Said hi.' }] },
      ],
    });
    try {
      const echo = built.defineTool({
        name: 'echo',
        description: 'Repeats its input',
        inputSchema: z.object({ text: z.string() }),
        call: async ({ text }) => ({ content: text }),
      });
      const { items, terminal } = await built.runQuery({
        prompt: 'Say hi through the echo tool',
        tools: [echo],
        deps: { callModel: built.createAnthropicModelCaller({ apiKey: 'test', baseURL: api.baseURL }) },
      });
      expect(terminal).toEqual({ reason: 'completed' });
      const results = items.filter((i) => i.type === 'user');
      expect(JSON.stringify(results)).toContain('"tool_use_id":"toolu_1"');
      expect(api.rejections()).toEqual([]);
    } finally {
      await api.close();
    }
  });
});
