/**
 * A Claude Code transcript in the viewer: `viz t.jsonl` re-drives every run (main thread and subagents) and draws
 * them on one page, marking where the engine and the recording disagree; `replay t.jsonl` says what to run instead.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.ts';
import { main } from '../../../src/cli/main.ts';
import { checkClaudeSession } from '../../../src/claude/check.ts';
import { claudeSessionForView } from '../../../src/viz/claude-session.ts';
import { viewerData, type EmbeddedRun } from '../../../src/viz/html.ts';
import { buildChart } from '../../../src/viz/graph.ts';
import { RunTree } from '../../../src/viz/viewer/run-tree.ts';
import { SessionModel } from '../../../src/viz/viewer/session-model.ts';
import type { SessionForView } from '../../../src/viz/session.ts';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/claude-code-transcripts');
const fixture = (name: string) => join(FIXTURES, name);

function fakeIo(cwd: string): CliIo & { out: string; err: string } {
  const io = { out: '', err: '', stdout: { write: (t: string) => (io.out += t) }, stderr: { write: (t: string) => (io.err += t) }, env: {}, cwd };
  return io;
}

/** Every run of the tree, the root first, depth first. */
function runsOf(session: SessionForView): SessionForView[] {
  return [session, ...(session.children ?? []).flatMap((c) => runsOf(c.session))];
}

describe('a Claude Code transcript as one page', () => {
  it('re-drives every run of the main thread; folding each run in the page reaches the ending check-claude reports', () => {
    const view = claudeSessionForView(fixture('subagent.jsonl'));
    const checks = checkClaudeSession(fixture('subagent.jsonl')).transcripts[0]!.runs;
    expect(view.runs).toBe(checks.length);
    expect(view.runs).toBe(2);
    expect(view.session!.children!.map((c) => [c.toolUseId, c.kind])).toEqual([['run-2', 'run']]);
    // The Task call whose subagent left only progress lines is said, not dropped.
    expect(view.notShown).toEqual([expect.stringContaining('toolu_01Cz2Pnv7qNcnK1ZiocxWhQX')]);
    const chart = buildChart();
    runsOf(view.session!).forEach((run, i) => {
      const model = new SessionModel(chart, run);
      expect(model.length).toBe(run.events.length + 1);
      expect(model.terminal).toBe(checks[i]!.ending.got);
      expect(run.check).toMatchObject({ ok: true, line: checks[i]!.startLine, notes: [] });
    });
  });

  it('hangs each subagent under the run that asked for its Task call, and a compaction agent under the first run', () => {
    const view = claudeSessionForView(fixture('ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl'));
    const session = checkClaudeSession(fixture('ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl'));
    expect(view.runs).toBe(session.transcripts.reduce((n, t) => n + t.runs.length, 0));
    const all = runsOf(view.session!);
    const subagents = all.flatMap((r) => (r.children ?? []).filter((c) => c.kind === 'subagent').map((c) => ({ parent: r, child: c })));
    expect(subagents.length).toBe(session.transcripts.length - 1);
    for (const { parent, child } of subagents) {
      if (child.agent === 'compaction') continue;
      const asked = parent.events.some((e) => e.type === 'model_message' && e.message.message.content.some((b) => b.type === 'tool_use' && b.id === child.toolUseId));
      expect(asked, child.toolUseId).toBe(true);
    }
  });

  it('embeds each later run with only the history the run before it did not have, and the page rebuilds it exactly', () => {
    const view = claudeSessionForView(fixture('fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl'));
    const data = viewerData(view.session);
    const later = (data.session!.children ?? []).filter((c) => c.kind === 'run');
    expect(later.length).toBeGreaterThan(1);
    for (const run of later) expect(run.sharedHistory?.count).toBeGreaterThan(0);
    const tree = new RunTree(data.chart, JSON.parse(JSON.stringify(data.session)) as EmbeddedRun);
    for (const c of view.session!.children!.filter((c) => c.kind === 'run')) {
      expect(tree.find([c.toolUseId])!.model.params.messages).toEqual(JSON.parse(JSON.stringify(c.session.params.messages)));
    }
    // Shared, the page holds each message of the main thread about once: not the sum of every run's history.
    const mainRuns = [view.session!, ...view.session!.children!.filter((c) => c.kind === 'run').map((c) => c.session)];
    const embeddedMain = [data.session!, ...later];
    const size = (runs: Array<{ params: { messages: unknown[] } }>) => runs.reduce((n, r) => n + JSON.stringify(r.params.messages).length, 0);
    const longest = Math.max(...mainRuns.map((r) => JSON.stringify(r.params.messages).length));
    console.log(`main-thread histories: ${size(mainRuns)} characters if each run embedded its own, ${size(embeddedMain)} shared; the longest ${longest}`);
    expect(size(embeddedMain)).toBeLessThan(longest * 1.1);
  });

  it('marks a run the engine does not reproduce, with what differs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-viz-claude-'));
    // One recorded tool result taken out: the engine still answers that tool call, the recording does not.
    const lines = readFileSync(fixture('tool_heavy.jsonl'), 'utf8').split('\n');
    writeFileSync(join(dir, 'broken.jsonl'), [...lines.slice(0, 10), ...lines.slice(11)].join('\n'));
    const view = claudeSessionForView(join(dir, 'broken.jsonl'));
    expect(view.differing).toBe(1);
    expect(view.session!.check).toMatchObject({ ok: false, notes: [expect.stringContaining('tool results: recorded 1, engine 2')] });
    expect(view.session!.children![0]!.session.check!.ok).toBe(true);

    const io = fakeIo(dir);
    expect(await main(['viz', 'broken.jsonl', '--out', 'view.html'], io)).toBe(0);
    expect(io.err).toContain('broken.jsonl: Claude Code transcript, 2 runs re-driven through the engine; 1 where the engine and the recording disagree (marked ✗)');
    const html = readFileSync(join(dir, 'view.html'), 'utf8');
    expect(html).toContain('<title>broken.jsonl · turnloop viewer</title>');
    expect(html).toContain('tool results: recorded 1, engine 2');
  });

  it('viz draws a transcript where it used to fail on its first line; replay and check-claude point to each other', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-viz-claude-'));
    writeFileSync(join(dir, 't.jsonl'), readFileSync(fixture('short.jsonl')));
    const viz = fakeIo(dir);
    expect(await main(['viz', 't.jsonl', '--out', 'view.html'], viz)).toBe(0);
    expect(viz.err).toContain('t.jsonl: Claude Code transcript, 1 run re-driven through the engine; the engine reproduces every one');
    expect(readFileSync(join(dir, 'view.html'), 'utf8')).toContain('"kind":"claude-transcript"');

    const replay = fakeIo(dir);
    expect(await main(['replay', 't.jsonl'], replay)).toBe(2);
    expect(replay.err.trim().split('\n')).toEqual([
      'turnloop replay: t.jsonl is a Claude Code transcript, not a turnloop session log: see it with turnloop viz t.jsonl --out view.html, check the engine reproduces it with turnloop check-claude t.jsonl',
    ]);

    const check = fakeIo(dir);
    expect(await main(['check-claude', 't.jsonl'], check)).toBe(0);
    expect(check.out.trim().split('\n').at(-1)).toBe('see the runs: turnloop viz t.jsonl --out view.html');
  });
});
