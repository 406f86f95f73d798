/**
 * Layers never import upward (docs/architecture.md). The ranks and rules live in `.dependency-cruiser.cjs`;
 * dependency-cruiser reads every import of src/ (static, type-only, re-exports, `import()`) and reports each one
 * that goes against them. This test runs it inside `npm test`, gives every folder of src/ a rank, and shows on a
 * throwaway tree that an upward import of each kind is reported.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as {
  LAYERS: string[];
  forbidden: IForbiddenRuleType[];
  options: Record<string, unknown>;
};

/** The violations dependency-cruiser finds under `baseDir/src`, as `from → to (rule)`. */
async function violations(baseDir: string): Promise<string[]> {
  const { output } = await cruise(['src'], { ...config.options, baseDir, validate: true, ruleSet: { forbidden: config.forbidden } });
  const result = output as ICruiseResult;
  expect(result.summary.totalCruised, 'the cruise saw no files').toBeGreaterThan(0);
  return result.summary.violations.map((v) => `${v.from} → ${v.to} (${v.rule.name})`);
}

describe('layers', () => {
  it('gives every folder of src/ its own rank', () => {
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((folder) => !config.LAYERS.includes(folder))).toEqual([]);
    expect(new Set(config.LAYERS).size).toBe(config.LAYERS.length);
  });

  it('finds no import against the ranks in src/', async () => {
    expect(await violations(ROOT)).toEqual([]);
  }, 60_000);

  describe('reports an upward import (the check can fail)', () => {
    const tree = mkdtempSync(join(tmpdir(), 'turnloop-layers-'));
    afterAll(() => rmSync(tree, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), text);
    };
    write('src/reducer/step.ts', 'export interface Step { n: number }\nexport const step = 1;\n');
    write('src/index.ts', 'export const root = 1;\n');
    write('src/data/static.ts', "import { step } from '../reducer/step.ts';\nexport const s = step;\n");
    write('src/data/type-only.ts', "import type { Step } from '../reducer/step.ts';\nexport type S = Step;\n");
    write('src/data/re-export.ts', "export { step } from '../reducer/step.ts';\n");
    write('src/data/dynamic.ts', "export const load = () => import('../reducer/step.ts');\n");
    write('src/machine/sideways-up.ts', "export { step } from '../reducer/step.ts';\n");
    write('src/cli/root.ts', "export { root } from '../index.ts';\n");
    write('src/cli/fine.ts', "export { step } from '../reducer/step.ts';\n");
    write('src/rules/missing.ts', "export { gone } from '../data/gone.ts';\n");

    it('of every kind: static, type-only, re-export, import(); to the root entry point; to no file', async () => {
      expect((await violations(tree)).sort()).toEqual([
        'src/cli/root.ts → src/index.ts (no-entry-point-from-a-layer)',
        'src/data/dynamic.ts → src/reducer/step.ts (layer-data)',
        'src/data/re-export.ts → src/reducer/step.ts (layer-data)',
        'src/data/static.ts → src/reducer/step.ts (layer-data)',
        'src/data/type-only.ts → src/reducer/step.ts (layer-data)',
        'src/machine/sideways-up.ts → src/reducer/step.ts (layer-machine)',
        'src/rules/missing.ts → ../data/gone.ts (no-unresolvable)',
      ]);
    }, 60_000);
  });
});
