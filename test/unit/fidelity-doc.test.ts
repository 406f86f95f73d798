/**
 * docs/fidelity.md lists every Extension of `src/config/extensions.ts` (docs/loop.md §11) and cannot go stale: the
 * generated table matches the list, every switch is a key of the default config, every pinning test exists.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/config.ts';
import { EXECUTABLE_DRIFT } from '../../src/config/executable-drift.ts';
import { EXTENSIONS } from '../../src/config/extensions.ts';
import { FIDELITY_DOC, withFreshExtensionTable } from '../../scripts/gen-fidelity-doc.ts';

const ROOT = join(import.meta.dirname, '../..');

describe('docs/fidelity.md', () => {
  it('holds the current generated Extension table (regenerate with npm run docs:fidelity)', () => {
    const doc = readFileSync(join(ROOT, FIDELITY_DOC), 'utf8');
    expect(withFreshExtensionTable(doc)).toBe(doc);
    for (const extension of EXTENSIONS) expect(doc).toContain(`\`${extension.id}\``);
  });

  it('names each Extension once', () => {
    const ids = EXTENSIONS.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
  });

  it.each(EXTENSIONS.filter((e) => e.configSwitch !== null).map((e) => [e.id, e.configSwitch as string]))(
    '%s: its switch %s is a key of the default config',
    (_id, path) => {
      let node: unknown = DEFAULT_CONFIG;
      for (const key of path.split('.')) {
        expect(node !== null && typeof node === 'object' && key in (node as object), `${path} at ${key}`).toBe(true);
        node = (node as Record<string, unknown>)[key];
      }
      expect(['boolean', 'number', 'string', 'object']).toContain(typeof node);
    },
  );

  it.each(EXTENSIONS.map((e) => [e.id, e.test.file, e.test.name]))('%s: its pinning test exists (%s)', (_id, file, name) => {
    const path = join(ROOT, file);
    expect(existsSync(path), `${file} exists`).toBe(true);
    const source = readFileSync(path, 'utf8');
    const quoted = [`'${name.replaceAll("'", "\\'")}'`, `"${name}"`, `\`${name}\``];
    expect(quoted.some((q) => source.includes(`it(${q}`)), `${file} has it(${JSON.stringify(name)})`).toBe(true);
  });

  it('lists each drift of the real executable once, each named by the side-by-side test that shows it', () => {
    const doc = readFileSync(join(ROOT, FIDELITY_DOC), 'utf8');
    const test = readFileSync(join(ROOT, 'test/agent-sdk/request-sequence.test.ts'), 'utf8');
    const ids = EXECUTABLE_DRIFT.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(doc).toContain(`\`${id}\``);
      expect(test, `request-sequence.test.ts names ${id}`).toContain(`'${id}'`);
    }
  });
});
