/**
 * docs/statechart.md, read as a user of the installed package reads it: where `loopMachine` comes from (it is in
 * `turnloop/internal`, not the root), and what builds the viewer's page script (installing builds nothing).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as internal from '../../src/internal/index.ts';
import * as root from '../../src/index.ts';

const doc = readFileSync(new URL('../../docs/statechart.md', import.meta.url), 'utf8');

describe('docs/statechart.md', () => {
  it('says where loopMachine is imported from before it first asks for it, and that place exports it', () => {
    const intro = doc.slice(0, doc.indexOf('\n\n', doc.indexOf('loopMachine')));
    expect(intro).toContain("import { loopMachine } from 'turnloop/internal'");
    expect(intro).toMatch(/unstable/);
    expect(internal).toHaveProperty('loopMachine');
    expect(root).not.toHaveProperty('loopMachine');
  });

  it('every import of loopMachine it shows is from turnloop/internal', () => {
    const imports = [...doc.matchAll(/import \{[^}]*\bloopMachine\b[^}]*\} from '([^']+)'/g)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(new Set(imports)).toEqual(new Set(['turnloop/internal']));
  });

  it('never says installing (npm ci / npm install) builds: the build runs at npm run build, npm test and npm pack', () => {
    expect(doc).not.toMatch(/which `npm (ci|install)` runs|`npm (ci|install)` (runs|builds)/);
    expect(doc).toContain('installing\nbuilds nothing');
  });
});
