import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import type { CliIo } from '../../../src/cli/cli-io.ts';
import { checkClaudeSession, checkTranscript } from '../../../src/claude/check.ts';
import { splitRuns } from '../../../src/claude/runs.ts';
import { checkConfig, driveRun } from '../../../src/claude/drive-run.ts';
import { explainMissedCompactions } from '../../../src/claude/unrecorded-context.ts';
import { parseTranscript, readTranscript, TranscriptFormatError } from '../../../src/claude/transcript.ts';
import { CLAUDE_TRANSCRIPTS_DIR } from '../../helpers/fixtures.ts';

const DIR = CLAUDE_TRANSCRIPTS_DIR;
const SESSIONS = readdirSync(DIR).filter((name) => name.endsWith('.jsonl'));

function testIo(): CliIo & { out: string; err: string } {
  const io = { out: '', err: '', env: {}, cwd: process.cwd() } as CliIo & { out: string; err: string };
  io.stdout = { write: (t: string) => (io.out += t) };
  io.stderr = { write: (t: string) => (io.err += t) };
  return io;
}

describe('check-claude: the engine reproduces the shared Claude Code transcripts', () => {
  it.each(SESSIONS)('%s: every run (and every subagent run) reproduces', (name) => {
    const checks = checkClaudeSession(join(DIR, name)).transcripts;
    for (const check of checks) {
      for (const run of check.runs) {
        expect({ file: check.file, run: run.run, ok: run.ok, notes: run.notes }).toEqual({ file: check.file, run: run.run, ok: true, notes: [] });
      }
    }
  });

  it('reaches the autocompact threshold at the model call Claude Code compacted before (fa812bfe, auto boundary, preTokens 167117)', () => {
    // With the original's count (usage + round(chars / 4), utils/tokens.ts:226-261) the recorded lines give 166,997
    // before call 83: 3 short of 167,000. Claude Code counted 167,117 (its attachments are not in the file); the
    // previous call's prompt shows 107 tokens of such unrecorded context, which the check adds (unrecorded-context.ts).
    const [main] = checkClaudeSession(join(DIR, 'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl'), { subagents: false }).transcripts;
    const compacted = main.runs.filter((r) => r.autocompact.recorded.length > 0);
    expect(compacted).toHaveLength(1);
    expect(compacted[0].autocompact.recorded).toEqual([83]);
    expect(compacted[0].autocompact.missed).toEqual([{ call: 83, trigger: 'auto', engineTokens: 166_997, unrecorded: 107, threshold: 167_000, explained: true }]);
    expect(compacted[0].autocompact.engine).toEqual([]);
    expect(compacted[0].ok).toBe(true);
  });

  it('does not explain a missed compaction the unrecorded context cannot cover, nor one that was not automatic', () => {
    const [main] = checkClaudeSession(join(DIR, 'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl'), { subagents: false }).transcripts;
    const run = splitRuns(readTranscript(join(DIR, 'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl')))[2];
    const callTokens = main.runs[2].autocompact.missed.length > 0 ? driveRun(run, { config: checkConfig(run) }).callTokens : [];
    expect(explainMissedCompactions(run, [83], callTokens, 167_200)[0].explained).toBe(false);
    expect(explainMissedCompactions(run, [83], callTokens, 166_990)[0].explained).toBe(false); // the engine was over: it should have compacted
    expect(explainMissedCompactions(run, [1], callTokens, 167_000)[0]).toMatchObject({ unrecorded: null, explained: false });
  });

  it('maps interrupts to the aborted terminals', () => {
    const short = checkTranscript(readTranscript(join(DIR, 'short.jsonl')));
    expect(short.runs.map((r) => r.ending.got)).toEqual(['aborted_tools']);
    const heavy = checkTranscript(readTranscript(join(DIR, 'tool_heavy.jsonl')));
    expect(heavy.runs.map((r) => [r.ending.got, r.modelCalls.got])).toEqual([['aborted_streaming', 3], ['aborted_streaming', 3]]);
  });

  it('skips and counts unknown line types, never fails on them', () => {
    const text = readFileSync(join(DIR, 'short.jsonl'), 'utf8') + '{"type":"brand-new-type","x":1}\n{"type":"system","subtype":"whatever"}\n';
    const transcript = parseTranscript(text, 'short+unknown.jsonl');
    expect(transcript.skipped['brand-new-type']).toBe(1);
    expect(transcript.skipped['system:whatever']).toBe(1);
    expect(checkTranscript(transcript).ok).toBe(true);
  });

  it('rejects a line that is not JSON with its line number', () => {
    expect(() => parseTranscript('{"type":"user","message":{"role":"user","content":"hi"}}\n{oops\n', 't.jsonl')).toThrowError(TranscriptFormatError);
    expect(() => parseTranscript('{"type":"user","message":{"role":"user","content":"hi"}}\n{oops\n', 't.jsonl')).toThrowError('t.jsonl:2:');
  });

  it('splits a session into one run per prompt', () => {
    const runs = splitRuns(readTranscript(join(DIR, 'subagent.jsonl')));
    expect(runs.map((r) => r.ending)).toEqual(['aborted_streaming', 'completed']);
    expect(runs[1].history.length).toBeGreaterThan(0);
  });
});

describe('CLI: import-claude and check-claude', () => {
  it('check-claude exits 0 when everything reproduces, 2 on bad input', async () => {
    const io = testIo();
    expect(await main(['check-claude', join(DIR, 'tool_heavy.jsonl')], io)).toBe(0);
    expect(io.out).toContain('all 2 runs reproduce');
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-cc-'));
    writeFileSync(join(dir, 'bad.jsonl'), 'not json\n');
    expect(await main(['check-claude', join(dir, 'bad.jsonl')], testIo())).toBe(2);
    expect(await main(['check-claude', join(dir, 'missing.jsonl')], testIo())).toBe(2);
  });

  it('import-claude writes one scenario per run in the simulate shape', async () => {
    const out = mkdtempSync(join(tmpdir(), 'turnloop-import-'));
    const io = testIo();
    expect(await main(['import-claude', join(DIR, 'subagent.jsonl'), '--out', out], io)).toBe(0);
    // Its Task subagent exists only as progress lines: the Task call keeps its recorded result, and the output says why.
    expect(io.out).toContain('run 1: Task toolu_01Cz2Pnv7qNcnK1ZiocxWhQX: the subagent afb92ff exists only as 19 progress line(s)');
    const files = readdirSync(out).filter((f) => f.endsWith('.json')).sort();
    expect(files).toEqual(['run-001.json', 'run-002.json']);
    const scenario = JSON.parse(readFileSync(join(out, 'run-002.json'), 'utf8'));
    expect(scenario.params.messages.length).toBeGreaterThan(0);
    expect(scenario.model[0]).toMatchObject({ content: expect.any(Array), stop_reason: 'tool_use', usage: expect.any(Object) });
    expect(scenario.params.messages.every((m: { role: string }) => m.role === 'user' || m.role === 'assistant')).toBe(true);
    expect(scenario.tools[0]).toMatchObject({ name: 'Bash', results: expect.arrayContaining([expect.objectContaining({ content: expect.any(String), isError: expect.any(Boolean) })]) });
    expect(scenario.expect).toEqual({ terminal: 'completed', transitions: ['next_turn', 'next_turn', 'next_turn'], modelCalls: 4, toolCalls: 4, autocompactBeforeCalls: [] });
    expect(scenario.source).toEqual({ file: join(DIR, 'subagent.jsonl'), run: 2, startLine: 71 });
    const interrupted = JSON.parse(readFileSync(join(out, 'run-001.json'), 'utf8'));
    expect(interrupted.abort).toEqual({ during: 'sampling', atModelCall: 9, reason: 'user' });
    expect(interrupted.expect).toMatchObject({ terminal: 'aborted_streaming', modelCalls: 9 });
  });
});
