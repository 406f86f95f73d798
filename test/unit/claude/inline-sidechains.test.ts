/**
 * Claude Code 1.0.x sessions: subagents inline in the session file (`isSidechain: true` lines on their own
 * parentUuid chain). The fixture `fa812bfe-inline-sidechains.jsonl` is the 2.x session fa812bfe with its two Task
 * subagent files written back inline by `scripts/inline-sidechains.ts`; it must check exactly as its original.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildInlineFixture, INLINE_FIXTURE } from '../../../scripts/inline-sidechains.ts';
import { checkClaudeSession, type RunCheck } from '../../../src/claude/check.ts';
import { main } from '../../../src/cli/main.ts';
import { readClaudeSession } from '../../../src/claude/session.ts';
import { splitThreads } from '../../../src/claude/sidechains.ts';
import { parseTranscriptLines, TranscriptFormatError, type TranscriptLine } from '../../../src/claude/transcript.ts';
import { CLAUDE_TRANSCRIPTS_DIR } from '../../helpers/fixtures.ts';

const SUBAGENTS = join(CLAUDE_TRANSCRIPTS_DIR, 'fa812bfe-b295-4cca-9c2f-fdf01028cb46', 'subagents');
const verdict = (r: RunCheck) => ({ ok: r.ok, modelCalls: r.modelCalls, toolResults: r.toolResults, ending: r.ending, autocompact: r.autocompact, notes: r.notes });
/** A subagent file's lines as 1.0.x wrote them: no `agentId`, so only the parentUuid chain says where each belongs. */
const sidechainLines = (name: string) => parseTranscriptLines(readFileSync(join(SUBAGENTS, name), 'utf8')).map(({ json: { agentId: _, ...json } }) => json);

describe('the 1.0.x inline-sidechain fixture', () => {
  it('is what scripts/inline-sidechains.ts builds from its 2.x original (reproducible)', () => {
    expect(readFileSync(INLINE_FIXTURE.output, 'utf8') === buildInlineFixture()).toBe(true);
  });

  it('has its subagents inline only: no subagents/ folder, sidechain lines with null-parent roots, no agentId', () => {
    const session = readClaudeSession(INLINE_FIXTURE.output);
    const inline = session.children.filter((c) => c.format === 'inline-sidechain');
    expect(session.children).toEqual(inline);
    expect(inline.map((c) => [c.startLine, c.transcript.lines, c.agentId])).toEqual([[45, 116, null], [757, 98, null]]);
    const lines = parseTranscriptLines(readFileSync(INLINE_FIXTURE.output, 'utf8'));
    const roots = lines.filter((l) => l.json.isSidechain === true && l.json.parentUuid === null);
    expect(roots.map((l) => l.line)).toEqual([45, 757]);
  });

  it('splits into the main thread and one sidechain per subagent, each line for line its 2.x file', () => {
    const threads = splitThreads(parseTranscriptLines(readFileSync(INLINE_FIXTURE.output, 'utf8')));
    expect(threads.main.some((l) => l.json.isSidechain === true)).toBe(false);
    expect(threads.sidechains.map((s) => s.lines.map((l) => l.json))).toEqual([sidechainLines('agent-a93ccab.jsonl'), sidechainLines('agent-aa84377.jsonl')]);
  });

  it('links each sidechain to its Task tool_use by its prompt alone, as 1.0.x records nothing else', () => {
    const original = readClaudeSession(INLINE_FIXTURE.source);
    const inline = readClaudeSession(INLINE_FIXTURE.output);
    const links = (s: typeof original) => s.children.filter((c) => c.querySource !== 'compact').map((c) => c.toolUseId);
    expect(links(inline)).toEqual(['toolu_01Y64XEaRvUYinzv9rW9qZXd', 'toolu_013mmyY3eDBg4Ji6oAszYt6p']);
    expect(links(inline)).toEqual(links(original));
    expect(inline.agentCalls.every((c) => c.agentId === null && c.progressLines === 0)).toBe(true);
    expect(inline.notCheckable).toEqual([]);
  });

  it('gives the same per-run verdicts as its 2.x original, main thread and each subagent', () => {
    const original = checkClaudeSession(INLINE_FIXTURE.source);
    const inline = checkClaudeSession(INLINE_FIXTURE.output);
    const byTask = (c: typeof original) =>
      Object.fromEntries(c.transcripts.filter((t) => t.querySource !== 'compact').map((t) => [t.subagent?.toolUseId ?? 'main', t.runs.map(verdict)]));
    expect(Object.keys(byTask(inline))).toEqual(['main', 'toolu_01Y64XEaRvUYinzv9rW9qZXd', 'toolu_013mmyY3eDBg4Ji6oAszYt6p']);
    expect(byTask(inline)).toEqual(byTask(original));
    expect(inline.transcripts.flatMap((t) => t.runs).length).toBe(5);
    expect(inline.ok).toBe(true);
  });
});

describe('parent and subagents checked together', () => {
  it("each linked subagent ends with the text its parent recorded as the Task result (2.x and 1.0.x)", () => {
    for (const file of [INLINE_FIXTURE.source, INLINE_FIXTURE.output, join(CLAUDE_TRANSCRIPTS_DIR, 'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl')]) {
      const linked = checkClaudeSession(file).transcripts.filter((t) => t.subagent?.toolUseId);
      expect(linked.length).toBeGreaterThan(0);
      for (const t of linked) expect(t.subagent?.result).toMatchObject({ same: true, recorded: expect.stringMatching(/\S/) });
    }
  });

  it('fails the subagent when the recorded Task result says something else', async () => {
    const text = readFileSync(INLINE_FIXTURE.output, 'utf8').split('\n');
    const i = text.findIndex((l) => l.includes('"tool_use_id":"toolu_013mmyY3eDBg4Ji6oAszYt6p"') && l.includes('"toolUseResult"'));
    const json = JSON.parse(text[i]);
    json.message.content[0].content[0].text += ' (edited)';
    text[i] = JSON.stringify(json);
    const file = join(mkdtempSync(join(tmpdir(), 'turnloop-sidechain-')), 'edited.jsonl');
    writeFileSync(file, text.join('\n'));
    const check = checkClaudeSession(file);
    const child = check.transcripts.find((t) => t.subagent?.toolUseId === 'toolu_013mmyY3eDBg4Ji6oAszYt6p');
    expect(child?.subagent?.result?.same).toBe(false);
    expect(child?.runs.every((r) => r.ok)).toBe(true);
    expect(check.ok).toBe(false);
    const io = { out: '', err: '', env: {}, cwd: process.cwd(), stdout: { write: (t: string) => void (io.out += t) }, stderr: { write: (t: string) => void (io.err += t) } };
    expect(await main(['check-claude', file], io)).toBe(1);
    expect(io.out).toContain('final answer DIFFERS from the recorded Task result');
  });
});

describe('splitting threads', () => {
  const a = sidechainLines('agent-a93ccab.jsonl');
  const b = sidechainLines('agent-aa84377.jsonl');
  const main = parseTranscriptLines(readFileSync(join(CLAUDE_TRANSCRIPTS_DIR, 'tool_heavy.jsonl'), 'utf8')).map((l) => l.json);

  it('separates the interleaved lines of concurrent subagents, whatever the interleaving', () => {
    const source = fc.array(fc.constantFrom(0, 1, 2), { minLength: a.length + b.length + main.length, maxLength: a.length + b.length + main.length });
    fc.assert(
      fc.property(source, fc.boolean(), (picks, reversed) => {
        const queues = [[...main], [...a], [...b]];
        const order = [...picks.map((i) => queues[i].shift()), ...queues.flat()].filter((x) => x !== undefined);
        const lines: TranscriptLine[] = (reversed ? order.reverse() : order).map((json, i) => ({ line: i + 1, json }));
        const threads = splitThreads(lines);
        const ordered = (xs: typeof a) => (reversed ? [...xs].reverse() : xs);
        expect(threads.main.map((l) => l.json)).toEqual(ordered(main));
        const chains = threads.sidechains.map((s) => s.lines.map((l) => l.json));
        expect(chains.sort((x, y) => x.length - y.length)).toEqual([ordered(b), ordered(a)]);
      }),
      { numRuns: 50 },
    );
  });

  it('rejects a sidechain user line without a uuid, with its line number', () => {
    const lines = parseTranscriptLines('{"type":"user","isSidechain":true,"parentUuid":null,"message":{"role":"user","content":"hi"}}\n', 's.jsonl');
    expect(() => splitThreads(lines, 's.jsonl')).toThrowError(TranscriptFormatError);
    expect(() => splitThreads(lines, 's.jsonl')).toThrowError('s.jsonl:1:');
  });
});

describe('subagents that cannot be checked', () => {
  it('reports a Task whose subagent exists only as progress lines, with its tool_use id and agent id', () => {
    const check = checkClaudeSession(join(CLAUDE_TRANSCRIPTS_DIR, 'subagent.jsonl'));
    expect(check.notCheckable).toEqual([{ toolUseId: 'toolu_01Cz2Pnv7qNcnK1ZiocxWhQX', agentId: 'afb92ff', reason: expect.stringContaining('only as 19 progress line(s)') }]);
    expect(check.ok).toBe(true);
  });

  it('links no sidechain whose prompt two Task calls share, and says why', () => {
    const task = (id: string) => ({ type: 'tool_use', id, name: 'Task', input: { description: 'd', prompt: 'Look around' } });
    const text = [
      { type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'go' } },
      { type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { id: 'm1', role: 'assistant', model: 'claude-sonnet-4-5', content: [task('t1'), task('t2')] } },
      { type: 'user', uuid: 's1', parentUuid: null, isSidechain: true, message: { role: 'user', content: 'Look around' } },
      { type: 'assistant', uuid: 's2', parentUuid: 's1', isSidechain: true, message: { id: 'm2', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'done' }] } },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const file = join(mkdtempSync(join(tmpdir(), 'turnloop-sidechain-')), 'session.jsonl');
    writeFileSync(file, `${text}\n`);
    const session = readClaudeSession(file);
    expect(session.children.map((c) => [c.toolUseId, c.unlinked])).toEqual([[null, '2 Task tool_uses (t1, t2) have its first prompt']]);
    expect(session.notCheckable.map((n) => n.toolUseId)).toEqual(['t1', 't2']);
  });

  it('links no sidechain by prompt to a Task call whose recorded agent id names another subagent', () => {
    const text = [
      { type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'go' } },
      { type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { id: 'm1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 't1', name: 'Task', input: { prompt: 'Look around' } }] } },
      { type: 'user', uuid: 's1', parentUuid: null, isSidechain: true, agentId: 'x', message: { role: 'user', content: 'Look around' } },
      { type: 'assistant', uuid: 's2', parentUuid: 's1', isSidechain: true, agentId: 'x', message: { id: 'm2', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'done' }] } },
      { type: 'user', uuid: 'u2', parentUuid: 'a1', toolUseResult: { agentId: 'y' }, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'done' }] }] } },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const file = join(mkdtempSync(join(tmpdir(), 'turnloop-sidechain-')), 'session.jsonl');
    writeFileSync(file, `${text}\n`);
    const session = readClaudeSession(file);
    expect(session.children.map((c) => [c.agentId, c.toolUseId])).toEqual([['x', null]]);
    expect(session.notCheckable).toEqual([{ toolUseId: 't1', agentId: 'y', reason: expect.stringContaining('no transcript of the subagent') }]);
  });
});

