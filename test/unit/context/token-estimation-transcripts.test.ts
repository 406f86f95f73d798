/**
 * The estimation check on real transcripts (docs/loop.md §6 "token count with estimation"): for every API call k > 1 of
 * each recorded session, `tokenCountWithEstimation(history before call k)` against the prompt size the API
 * reported for call k. Method and figures: `docs/context-estimation.md`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareCalls, distribution, type CallComparison } from './estimation-measure.ts';
import { loadTranscript, parseTranscript } from './transcript-fixture.ts';
import { CLAUDE_TRANSCRIPTS_DIR } from '../../helpers/fixtures.ts';
import { INLINE_FIXTURE } from '../../../scripts/inline-sidechains.ts';

const FIXTURES = CLAUDE_TRANSCRIPTS_DIR;

/**
 * Largest undercount accepted, as a share of the real prompt (estimate >= (1 - margin) * actual). Measured worst
 * case 0.849 (a call whose prompt held about 5,400 tokens the transcript does not record, see the doc); the margin
 * leaves a little room below it.
 */
const UNDERCOUNT_MARGIN = 0.2;
/** Estimates also must not run away upwards (measured max 1.000). */
const OVERCOUNT_LIMIT = 1.1;

function transcriptFiles(): string[] {
  if (!existsSync(FIXTURES)) return [];
  const files: string[] = [];
  for (const entry of readdirSync(FIXTURES, { withFileTypes: true })) {
    // The inline-sidechain fixture is a copy of fa812bfe and its subagents in another layout: measured already.
    if (entry.isFile() && entry.name.endsWith('.jsonl') && join(FIXTURES, entry.name) !== INLINE_FIXTURE.output) files.push(join(FIXTURES, entry.name));
    const subagents = join(FIXTURES, entry.name, 'subagents');
    if (entry.isDirectory() && existsSync(subagents)) {
      for (const name of readdirSync(subagents)) if (name.endsWith('.jsonl')) files.push(join(subagents, name));
    }
  }
  return files.sort();
}

const files = transcriptFiles();
const fmt = (x: number) => x.toFixed(3);

describe.skipIf(files.length === 0)('token estimation against real transcripts', () => {
  const results = new Map<string, CallComparison[]>();
  for (const file of files) results.set(file, compareCalls(loadTranscript(file)));
  const anchored = [...results.values()].flat().filter((c) => c.anchored);

  it('prints the estimate/actual distribution per fixture', () => {
    for (const [file, calls] of results) {
      const ok = calls.filter((c) => c.anchored);
      const unanchored = calls.filter((c) => !c.anchored).map((c) => fmt(c.ratio));
      const d = ok.length ? distribution(ok.map((c) => c.ratio)) : null;
      console.log(
        `${basename(file)}: ${d ? `n=${d.n} min=${fmt(d.min)} p05=${fmt(d.p05)} median=${fmt(d.median)} max=${fmt(d.max)}` : 'no call k>1'}` +
          (unanchored.length ? ` unanchored=[${unanchored.join(', ')}]` : ''),
      );
    }
    const all = distribution(anchored.map((c) => c.ratio));
    console.log(`ALL: n=${all.n} min=${fmt(all.min)} p05=${fmt(all.p05)} median=${fmt(all.median)} max=${fmt(all.max)}`);
    expect(anchored.length).toBeGreaterThan(300);
  });

  it(`never undercounts an anchored call by more than ${UNDERCOUNT_MARGIN * 100}%`, () => {
    const worst = anchored.filter((c) => c.ratio < 1 - UNDERCOUNT_MARGIN);
    expect(worst).toEqual([]);
  });

  it('stays close on the typical call (median within 2%) and never overcounts by more than 10%', () => {
    const d = distribution(anchored.map((c) => c.ratio));
    expect(d.median).toBeGreaterThan(0.98);
    expect(d.max).toBeLessThan(OVERCOUNT_LIMIT);
  });

  it('counts a call right after a compaction as unanchored (no usage after the boundary)', () => {
    const unanchored = [...results.values()].flat().filter((c) => !c.anchored);
    // Only the two long sessions compacted; their first post-compaction call lacks the system prompt and tools.
    expect(unanchored).toHaveLength(2);
    for (const c of unanchored) expect(c.ratio).toBeLessThan(0.5);
  });
});

describe('transcript loader', () => {
  it('maps user, assistant and compact-boundary lines in order and counts what it skips', () => {
    const lines = [
      { type: 'progress', uuid: 'p1' },
      { type: 'user', uuid: 'u1', message: { role: 'user', content: 'hi' } },
      {
        type: 'assistant',
        uuid: 'a1',
        message: {
          id: 'm1',
          role: 'assistant',
          model: 'x',
          content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }],
          stop_reason: null,
          usage: { input_tokens: 1, output_tokens: 2, cache_read_input_tokens: 3, cache_creation_input_tokens: 4 },
        },
      },
      { type: 'user', uuid: 'u2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] } },
      { type: 'system', subtype: 'compact_boundary', uuid: 's1', content: 'c', compactMetadata: { trigger: 'auto', preTokens: 9 } },
      { type: 'user', uuid: 'u3', isVisibleInTranscriptOnly: true, isCompactSummary: true, message: { role: 'user', content: 'sum' } },
      { type: 'user', uuid: 'u4', isVisibleInTranscriptOnly: true, message: { role: 'user', content: 'ui only' } },
    ];
    const t = parseTranscript(lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(t.messages.map((m) => m.uuid)).toEqual(['u1', 'a1', 'u2', 's1', 'u3']);
    expect(t.calls).toEqual([
      {
        messageId: 'm1',
        firstIndex: 1,
        usage: { input_tokens: 1, output_tokens: 2, cache_read_input_tokens: 3, cache_creation_input_tokens: 4 },
      },
    ]);
    expect(t.messages[2]).toMatchObject({ sourceToolUseId: 't1' });
    expect(t.skipped).toEqual({ progress: 1, 'user:transcript-only': 1 });
  });
});
