/**
 * What keeps a fresh clone light (README, "Development"): the heavy suites' tools stay in package folders of their
 * own, each pinned and locked, installed by the npm script that runs the suite; the root install runs no build
 * and no install script of ours; and `.ci/run` still runs every suite.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
interface Manifest {
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
const root = JSON.parse(read('package.json')) as Manifest;

/** Each suite folder, the tools only it installs, and the npm scripts that install it before they run. */
const SUITES = [
  { dir: 'test/browser', tools: ['mermaid', 'playwright-core'], scripts: ['test:browser', 'test:perf', 'docs:inspector'] },
  { dir: 'test/interop', tools: ['@modelcontextprotocol/server-everything', '@modelcontextprotocol/server-filesystem', '@scion-scxml/scxml'], scripts: ['test:interop'] },
  { dir: 'mutation', tools: ['@stryker-mutator/core', '@stryker-mutator/vitest-runner'], scripts: ['test:mutation'] },
];

describe('a light clone', () => {
  it.each(SUITES.map((s) => [s.dir, s] as const))('%s holds its tools, pinned and locked, and its scripts install it first', (dir, suite) => {
    const manifest = JSON.parse(read(`${dir}/package.json`)) as Manifest;
    const lock = JSON.parse(read(`${dir}/package-lock.json`)) as { packages: Record<string, Manifest> };
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual([...suite.tools].sort());
    for (const version of Object.values(manifest.dependencies ?? {})) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(lock.packages[''].dependencies).toEqual(manifest.dependencies);
    for (const tool of suite.tools) {
      expect(root.devDependencies, `${tool} is not a root devDependency`).not.toHaveProperty(tool);
    }
    for (const script of suite.scripts) {
      expect(root.scripts?.[script], script).toMatch(new RegExp(`^sh scripts/ensure-installed\\.sh ${dir} && `));
    }
  });

  it('the root install builds nothing and runs no install script of ours (npm pack builds, through prepack)', () => {
    const lifecycle = Object.keys(root.scripts ?? {}).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name));
    expect(lifecycle).toEqual([]);
    expect(root.scripts?.prepack).toBe('npm run build');
  });

  it('.ci/run runs every test suite but mutation testing', () => {
    const ci = read('.ci/run');
    const suites = Object.keys(root.scripts ?? {}).filter((name) => /^test:/.test(name) && !['test:deep', 'test:mutation'].includes(name));
    for (const suite of suites) expect(ci, suite).toMatch(new RegExp(`^npm run ${suite}\\b`, 'm'));
    expect(ci).toMatch(/^npm test$/m);
  });
});
