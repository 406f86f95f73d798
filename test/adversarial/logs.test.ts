/**
 * Logs from strangers: nothing in a log is executed unguarded (header regexes run on RE2 or the log is refused),
 * the hash chain catches damage but not forgery, and a signature made with the user's key catches both.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../unit/cli/capture-io.ts';
import { reseal } from '../unit/replay/fixtures.ts';
import { expectInvariants, makeSandbox, runHostile, snapshotOutside, type Sandbox } from './harness.ts';

let sandbox: Sandbox;
let before: Record<string, string>;
beforeEach(() => {
  sandbox = makeSandbox({ 'a.txt': 'alpha\n' });
  before = snapshotOutside(sandbox);
});
afterEach(() => sandbox.cleanup());

async function recordedLog(text = 'done'): Promise<string> {
  const run = await runHostile({
    sandbox,
    model: [{ content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a.txt' } }], stop_reason: 'tool_use' }, { content: [{ type: 'text', text }], stop_reason: 'end_turn' }],
  });
  expectInvariants(run, sandbox, before, { maxModelCalls: 2 });
  return run.logPath;
}

function withHeader(path: string, change: (header: Record<string, unknown>) => void): void {
  const [first, ...rest] = readFileSync(path, 'utf8').trimEnd().split('\n');
  const header = JSON.parse(first!) as Record<string, unknown>;
  change(header);
  // Version 2's chain covers the header's bytes too: seal the edited log again, as if it had been recorded so.
  writeFileSync(path, `${reseal([JSON.stringify(header), ...rest]).join('\n')}\n`);
}

describe('header regexes', () => {
  it('a catastrophic pattern runs on RE2 (linear time): replay and viz finish', async () => {
    const log = await recordedLog(`${'a'.repeat(50_000)}!`);
    withHeader(log, (h) => (h.redactPatterns = [{ source: '^(a+)+$', flags: 'g' }, { source: '(x+x+)+y', flags: 'g' }]));
    const replayed = await runCli(['replay', log], { cwd: sandbox.dir });
    expect(replayed.stderr).toBe('');
    expect(replayed.code).toBe(0);
    const viz = await runCli(['viz', log, '--out', join(sandbox.dir, 'v.html')], { cwd: sandbox.dir });
    expect(viz.code).toBe(0);
  });

  it.each([
    ['a backreference', '(a)\\1'],
    ['a lookahead', 'a(?=b)'],
    ['an over-long pattern', 'a'.repeat(5_000)],
  ])('%s is refused before anything runs: exit 2 naming line 1 and the pattern', async (_kind, source) => {
    const log = await recordedLog();
    withHeader(log, (h) => (h.redactPatterns = [{ source, flags: 'g' }]));
    for (const argv of [['replay', log], ['viz', log, '--out', join(sandbox.dir, 'v.html')], ['resume', log]]) {
      const result = await runCli(argv, { cwd: sandbox.dir });
      expect(result.code, argv[0]).toBe(2);
      expect(result.stderr, argv[0]).toMatch(/:1: expected redactPatterns\[0\] to be a regular expression RE2 can run in linear time/);
    }
  });
});

describe('header pattern count', () => {
  it('more than 64 redaction patterns (each takes room in RE2\'s fixed heap) is refused', async () => {
    const log = await recordedLog();
    withHeader(log, (h) => (h.redactPatterns = Array.from({ length: 65 }, (_, i) => ({ source: `p${i}`, flags: 'g' }))));
    const result = await runCli(['replay', log], { cwd: sandbox.dir });
    expect([result.code, result.stderr]).toEqual([2, expect.stringMatching(/:1: expected at most 64 redactPatterns, got 65/)]);
  });
});

describe('integrity and origin', () => {
  it('the chain catches an edited event; only a signature tells a forged log from the real one', async () => {
    const real = await recordedLog('the real answer');
    const forged = await recordedLog('a forged answer');
    const key = join(sandbox.dir, 'key.pem');
    const pub = join(sandbox.dir, 'key.pub');
    const pair = generateKeyPairSync('ed25519');
    writeFileSync(key, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(pub, pair.publicKey.export({ type: 'spki', format: 'pem' }));
    expect((await runCli(['sign', real, '--key', key], { cwd: sandbox.dir })).code).toBe(0);

    // Both logs replay with every hash verified: the chain says nothing about who wrote a log.
    expect((await runCli(['replay', forged], { cwd: sandbox.dir })).code).toBe(0);
    // The signed one verifies with the public key; the forged one (given the real one's signature) does not.
    const ok = await runCli(['replay', real, '--verify-key', pub], { cwd: sandbox.dir });
    expect([ok.code, ok.stderr]).toEqual([0, expect.stringMatching(/^signature ok: ed25519/)]);
    writeFileSync(`${forged}.sig`, readFileSync(`${real}.sig`));
    const bad = await runCli(['replay', forged, '--verify-key', pub], { cwd: sandbox.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/signature (covers|does not match)/);

    // An edited event breaks the chain (exit 1: divergence) and the signature (exit 2).
    const text = readFileSync(real, 'utf8');
    writeFileSync(real, text.replace('the real answer', 'the real answeR'));
    expect((await runCli(['replay', real], { cwd: sandbox.dir })).code).toBe(1);
    expect((await runCli(['replay', real, '--verify-key', pub], { cwd: sandbox.dir })).code).toBe(2);
  });

  it('HMAC keys: a wrong key, a missing signature and a short secret are exit 2 with a reason', async () => {
    const log = await recordedLog();
    writeFileSync(join(sandbox.dir, 'k1'), 'first shared secret, long enough\n');
    writeFileSync(join(sandbox.dir, 'k2'), 'second shared secret, long enough\n');
    writeFileSync(join(sandbox.dir, 'short'), 'tiny\n');
    const missing = await runCli(['replay', log, '--verify-key', 'k1'], { cwd: sandbox.dir });
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringMatching(/no signature file next to the log/)]);
    expect((await runCli(['sign', log, '--key', 'k1'], { cwd: sandbox.dir })).code).toBe(0);
    expect((await runCli(['replay', log, '--verify-key', 'k1'], { cwd: sandbox.dir })).code).toBe(0);
    const wrong = await runCli(['replay', log, '--verify-key', 'k2'], { cwd: sandbox.dir });
    expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringMatching(/does not match/)]);
    const short = await runCli(['sign', log, '--key', 'short'], { cwd: sandbox.dir });
    expect([short.code, short.stderr]).toEqual([2, expect.stringMatching(/at least 16 bytes/)]);
  });
});
