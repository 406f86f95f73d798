import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.ts';
import { main } from '../../../src/cli/main.ts';
import { recordRun, toolTurns } from './fixtures.ts';

function testIo(): CliIo & { out: string; err: string } {
  const io = { out: '', err: '', env: {}, cwd: process.cwd() } as CliIo & { out: string; err: string };
  io.stdout = { write: (t: string) => (io.out += t) };
  io.stderr = { write: (t: string) => (io.err += t) };
  return io;
}

describe('turnloop replay', () => {
  it('replays, time-travels and answers what-if questions', async () => {
    const run = await recordRun(toolTurns(2));
    let io = testIo();
    expect(await main(['replay', run.path], io)).toBe(0);
    expect(io.out).toContain('every state hash matches');
    expect(io.out).toContain('terminal: completed');

    io = testIo();
    expect(await main(['replay', run.path, '--at', '3', '--json'], io)).toBe(0);
    const at = JSON.parse(io.out);
    expect(at.index).toBe(3);
    expect(typeof at.value).toBe('string');

    io = testIo();
    expect(await main(['replay', run.path, '--params', '{"maxTurns":1}'], io)).toBe(0);
    expect(io.out).toContain('first divergence at event');
    expect(io.out).toContain('max_turns');
  });

  it('exits 1 on a divergence and 2 on a malformed log', async () => {
    const run = await recordRun(toolTurns(1));
    const lines = readFileSync(run.path, 'utf8').trimEnd().split('\n');
    const tampered = JSON.parse(lines[4]);
    tampered.hash = 'ffffffffffffffff';
    writeFileSync(run.path, [...lines.slice(0, 4), JSON.stringify(tampered), ...lines.slice(5)].join('\n') + '\n');
    let io = testIo();
    expect(await main(['replay', run.path], io)).toBe(1);
    expect(io.err).toContain('replay diverged at event 4');

    writeFileSync(run.path, [lines[0], '[1,2]', ...lines.slice(2)].join('\n') + '\n');
    io = testIo();
    expect(await main(['replay', run.path], io)).toBe(2);
    expect(io.err).toContain(':2: expected an event line');
    expect(await main(['replay', run.path, '--config', 'nope'], testIo())).toBe(2);
  });
});
