/**
 * Commands that tell the truth from anywhere: the shipped examples are reachable by name (`simulate --example`,
 * `check-claude --example`, `turnloop examples`), check-claude and import-claude refuse a file that is not a Claude
 * Code transcript (exit 2, saying what it is), and hints spell the command the way the user can paste it.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { notATranscript } from '../../../src/claude/recognise-transcript.ts';
import { turnloopCommand } from '../../../src/cli/invocation.ts';
import { runCli } from './capture-io.ts';

const scratch = mkdtempSync(join(tmpdir(), 'turnloop-examples-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('shipped examples', () => {
  it('turnloop examples lists the scenarios and transcripts with paths that exist', async () => {
    const listed = await runCli(['examples', '--json'], { cwd: scratch });
    expect(listed.code, listed.stderr).toBe(0);
    const json = JSON.parse(listed.stdout) as { scenarios: Record<string, string>; transcripts: Record<string, string>; demoProject: string };
    expect(Object.keys(json.scenarios)).toContain('completed');
    expect(Object.keys(json.transcripts)).toContain('short');
    for (const path of [...Object.values(json.scenarios), ...Object.values(json.transcripts), json.demoProject]) expect(existsSync(path), path).toBe(true);
    const text = await runCli(['examples'], { cwd: scratch });
    expect(text.stdout).toMatch(/^ {2}completed\s+\/\S+\/examples\/scenarios\/completed\.json$/m);
  });

  it('simulate --example runs a shipped scenario from a directory that has no examples/ folder', async () => {
    const result = await runCli(['simulate', '--example', 'completed', '--json'], { cwd: scratch });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { terminal: { reason: string } }).terminal.reason).toBe('completed');
  });

  it('an unknown example name is bad input with a suggestion; a file and --example together are refused', async () => {
    const typo = await runCli(['simulate', '--example', 'complted'], { cwd: scratch });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("no scenario named 'complted' ships with turnloop. Did you mean 'completed'?");
    const both = await runCli(['simulate', 'x.json', '--example', 'completed'], { cwd: scratch });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give a scenario file or --example, not both');
  });

  it('check-claude --example short re-drives the shipped transcript', async () => {
    const result = await runCli(['check-claude', '--example', 'short'], { cwd: scratch });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^all [1-9]\d* runs reproduce$/m);
  });
});

describe('a file that is not a Claude Code transcript', () => {
  it('check-claude and import-claude refuse a turnloop session log (exit 2), saying what it is', async () => {
    const log = join(scratch, 'session.jsonl');
    expect((await runCli(['simulate', '--example', 'completed', '--record', log], { cwd: scratch })).code).toBe(0);
    for (const argv of [['check-claude', log], ['import-claude', log, '--out', join(scratch, 'out')]]) {
      const result = await runCli(argv, { cwd: scratch });
      expect(result.code, argv[0]).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`${log}: not a Claude Code transcript: found a turnloop session log`);
      expect(result.stderr).toContain('turnloop replay');
    }
  });

  it('names what it found instead: JSON lines without messages, one multi-line JSON document', () => {
    expect(notATranscript('{"type":"summary","summary":"x"}\n{"type":"progress"}\n')).toBe('2 JSON line(s), none of them a message (a line whose "type" is "user" or "assistant", with a "message")');
    expect(notATranscript('{\n  "params": {}\n}\n')).toBe('one JSON document spread over several lines, not JSON Lines');
    expect(notATranscript('{"type":"user","message":{"role":"user","content":"hi"}}\n')).toBeUndefined();
  });
});

describe('hints spell turnloop as the user can run it', () => {
  it('npx turnloop under npx or an npm script, turnloop when one is on PATH for good, else npx turnloop', () => {
    const bin = join(scratch, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'turnloop'), '#!/bin/sh\n');
    chmodSync(join(bin, 'turnloop'), 0o755);
    expect(turnloopCommand({ npm_command: 'exec', PATH: bin })).toBe('npx turnloop');
    expect(turnloopCommand({ npm_lifecycle_event: 'demo', PATH: bin })).toBe('npx turnloop');
    expect(turnloopCommand({ PATH: bin })).toBe('turnloop');
    expect(turnloopCommand({ PATH: join(scratch, 'node_modules', '.bin') })).toBe('npx turnloop');
    expect(turnloopCommand({})).toBe('npx turnloop');
  });
});
