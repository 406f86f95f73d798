/**
 * The loader of the headless bundle (src/cli/bundle-loader.ts): a cache made for this V8 is used, a cache V8 refuses
 * still runs the bundle (compiled as without one), no cache falls back to `require()`, and loading writes nothing.
 * Checked on a small CommonJS bundle of the test's own, each load in a fresh process (V8 keeps compiled code per
 * process, so a second load in one process would say nothing about the cache).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleText, bundleV8Flags, codeCachePath, loadBundle } from '../../../src/cli/bundle-loader.ts';

const loaderUrl = new URL('../../../src/cli/bundle-loader.ts', import.meta.url).href;
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A bundle whose exports tell that it ran as CommonJS, with a function the warm-up calls. */
function tinyBundle(): string {
  const dir = mkdtempSync(join(tmpdir(), 'turnloop-bundle-'));
  dirs.push(dir);
  const file = join(dir, 'tiny.cjs');
  writeFileSync(file, `exports.where = __filename;\nexports.hasRequire = typeof require('node:path').join;\nexports.twice = (n) => n * 2;\nmodule.exports.answer = exports.twice(21);\n`);
  return file;
}

/** Loads the bundle in a fresh Node: how, and what it exports. */
function loadInChild(file: string): { via: string; answer: number; where: string; hasRequire: string } {
  const code = `const { loadBundle } = await import(${JSON.stringify(loaderUrl)});
const { via, exports } = loadBundle(${JSON.stringify(file)});
console.log(JSON.stringify({ via, answer: exports.answer, where: exports.where, hasRequire: exports.hasRequire }));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 60_000 });
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as ReturnType<typeof loadInChild>;
}

describe('loadBundle', () => {
  it('names the cache after the V8 that made it', () => {
    expect(codeCachePath('/x/dist/cli/headless-bundle.cjs', '11.3.244.8-node.38')).toBe('/x/dist/cli/headless-bundle.v8-11.3.244.8-node.38.cache');
  });

  it('reads an ASCII bundle as the same text UTF-8 decoding gives, and decodes any other as UTF-8', () => {
    const ascii = Buffer.from('exports.a = "\\u2014"; // a comment\n');
    expect(bundleText(ascii)).toBe(ascii.toString('utf8'));
    const utf8 = Buffer.from('// caf\u00e9 \u2014 \u{1F44B}\nexports.a = 1;\n');
    expect(bundleText(utf8)).toBe('// caf\u00e9 \u2014 \u{1F44B}\nexports.a = 1;\n');
  });

  it('without a cache for this V8, requires the bundle as CommonJS', () => {
    const file = tinyBundle();
    expect(loadInChild(file)).toEqual({ via: 'required', answer: 42, where: file, hasRequire: 'function' });
  });

  it('uses a cache made after a run, and writes nothing while loading', () => {
    const file = tinyBundle();
    const made = loadBundle<{ twice(n: number): number }>(file, 'make-cache');
    expect(made.via).toBe('compiled');
    expect(made.exports.twice(2)).toBe(4);
    writeFileSync(codeCachePath(file), made.createCache()!);
    const before = readdirSync(join(file, '..')).sort();
    expect(loadInChild(file)).toEqual({ via: 'cached', answer: 42, where: file, hasRequire: 'function' });
    expect(readdirSync(join(file, '..')).sort()).toEqual(before);
  });

  it('runs the bundle all the same when V8 refuses the cache', () => {
    const file = tinyBundle();
    writeFileSync(codeCachePath(file), Buffer.from('not a code cache at all'));
    expect(loadInChild(file)).toEqual({ via: 'rejected', answer: 42, where: file, hasRequire: 'function' });
  });

  it('refuses a cache made for another source (V8 checks the source, not only the file name)', () => {
    const file = tinyBundle();
    writeFileSync(codeCachePath(file), loadBundle(file, 'make-cache').createCache()!);
    writeFileSync(file, `exports.answer = 43;\nexports.where = __filename;\nexports.hasRequire = typeof require;\n/* a different length */\n`);
    expect(loadInChild(file)).toMatchObject({ via: 'rejected', answer: 43 });
  });

  it('sets the young generation growth factor on V8 11 only, and every flag it sets is one this V8 knows', () => {
    expect(bundleV8Flags('11.3.244.8-node.38')).toEqual(['--wasm-tiering-budget=18000000', '--semi-space-growth-factor=4']);
    expect(bundleV8Flags('12.4.254.21-node.33')).toEqual(['--wasm-tiering-budget=18000000']);
    // V8 reports a flag it does not know on stderr: none for these, one for a made-up flag (so the check can fail).
    const setting = (flags: string[]) =>
      spawnSync(process.execPath, ['-e', `for (const flag of ${JSON.stringify(flags)}) require('node:v8').setFlagsFromString(flag);`], { encoding: 'utf8', timeout: 60_000 }).stderr;
    expect(setting(bundleV8Flags())).toBe('');
    expect(setting(['--no-such-v8-flag-here'])).toContain('unrecognized flag');
  });
});
