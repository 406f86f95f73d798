/**
 * The built package: `npm test` builds `dist/` first (`npm run build`, as `npm pack` does through `prepack`; an
 * install runs no build of ours), every subpath of package.json's `exports` is a built file exporting what its
 * source exports, and plain Node (no TypeScript loader) can run a loop with it. Guards against a build that drops
 * an export or an entry point. (`npm run test:package` goes further: it installs the packed tarball into an empty
 * project.)
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type * as root from '../../src/index.ts';
import type * as testing from '../../src/testing/index.ts';

const repo = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', repo), 'utf8')) as { exports: Record<string, string> };
const codeEntries = Object.entries(pkg.exports).filter(([subpath]) => subpath !== './package.json');

describe('the built package (dist/)', () => {
  for (const [subpath, target] of codeEntries) {
    it(`exports ${subpath} from ${target}, as its source does`, async () => {
      const built = new URL(target, repo);
      expect(existsSync(built), 'run `npm run build` (npm test does it)').toBe(true);
      expect(existsSync(new URL(target.replace(/\.js$/, '.d.ts'), repo)), 'type declarations beside the entry').toBe(true);
      const source = new URL(target.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts'), repo);
      const [fromDist, fromSource] = await Promise.all([import(built.href), import(source.href)]);
      expect(Object.keys(fromDist).sort()).toEqual(Object.keys(fromSource).sort());
    });
  }

  it('runs a tool-using loop against the loopback fake API', async () => {
    const built = (await import(new URL('dist/index.js', repo).href)) as typeof root;
    const { startFakeAnthropicApi } = (await import(new URL('dist/testing/index.js', repo).href)) as typeof testing;
    const api = await startFakeAnthropicApi({
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
