import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.ts';
import { main } from '../../../src/cli/main.ts';
import { INSPECT_PACKAGE, InspectorUnavailableError, loadInspector } from '../../../src/viz/inspect.ts';
import { minimalLog, recordedLog, toolUsingSession } from './fixtures.ts';

function fakeIo(cwd: string): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: { write: (t: string) => (io.out += t) },
    stderr: { write: (t: string) => (io.err += t) },
    env: {},
    cwd,
  };
  return io;
}

describe('turnloop export', () => {
  it.each([
    ['json', '"id": "agentLoop"'],
    ['mermaid', 'stateDiagram-v2'],
    ['scxml', '<scxml xmlns="http://www.w3.org/2005/07/scxml"'],
    ['dot', 'digraph "agentLoop" {'],
  ])('--format %s writes the chart to stdout', async (format, marker) => {
    const io = fakeIo(tmpdir());
    expect(await main(['export', '--format', format], io)).toBe(0);
    expect(io.out).toContain(marker);
  });

  it('--out writes a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-export-'));
    const io = fakeIo(dir);
    expect(await main(['export', '--format=mermaid', '--out', 'chart.mmd'], io)).toBe(0);
    expect(readFileSync(join(dir, 'chart.mmd'), 'utf8')).toMatch(/^%%\{init[^\n]*\nstateDiagram-v2\n/);
  });

  it('rejects a missing or unknown format with exit code 2', async () => {
    const io = fakeIo(tmpdir());
    expect(await main(['export'], io)).toBe(2);
    expect(await main(['export', '--format', 'png'], io)).toBe(2);
    expect(io.err).toContain("unknown format 'png'");
  });
});

describe('turnloop viz', () => {
  it('writes one HTML page for a session log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-viz-'));
    writeFileSync(join(dir, 'run.jsonl'), minimalLog(toolUsingSession()));
    const io = fakeIo(dir);
    expect(await main(['viz', 'run.jsonl', '--out', 'view.html'], io)).toBe(0);
    expect(readFileSync(join(dir, 'view.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/);
  });

  it('checks a recorded log against its hashes and warns when it does not replay as recorded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-viz-'));
    const log = recordedLog(toolUsingSession());
    writeFileSync(join(dir, 'run.jsonl'), log);
    const io = fakeIo(dir);
    expect(await main(['viz', 'run.jsonl', '--out', 'view.html'], io)).toBe(0);
    expect(io.err).not.toContain('warning');
    const lines = log.trimEnd().split('\n');
    lines[3] = lines[3]!.replace(/"hash":"[^"]+"/, '"hash":"0000"');
    writeFileSync(join(dir, 'tampered.jsonl'), `${lines.join('\n')}\n`);
    const tampered = fakeIo(dir);
    expect(await main(['viz', 'tampered.jsonl', '--out', 'view2.html'], tampered)).toBe(0);
    expect(tampered.err).toContain('does not replay as recorded');
  });

  it('reports a bad log with its line and exit code 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-viz-'));
    writeFileSync(join(dir, 'bad.jsonl'), '{"kind":"header","config":{},"params":{"messages":[]}}\nnot json\n');
    const io = fakeIo(dir);
    expect(await main(['viz', 'bad.jsonl', '--out', 'view.html'], io)).toBe(2);
    expect(io.err).toContain('bad.jsonl:2: ');
  });

  it('--inspect without the optional package says how to install it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-viz-'));
    writeFileSync(join(dir, 'run.jsonl'), minimalLog(toolUsingSession()));
    const io = fakeIo(dir);
    await expect(loadInspector(() => Promise.reject(new Error('not found')))).rejects.toBeInstanceOf(InspectorUnavailableError);
    const code = await main(['viz', 'run.jsonl', '--inspect', '--out', 'view.html'], io);
    expect(code).toBe(2);
    expect(io.err).toContain(`npm install --save-dev ${INSPECT_PACKAGE}`);
  });
});
