/**
 * The viewer's model of a tree of runs (a session and its subagents), in Node: reading the child logs beside a
 * recorded log, embedding them in the page's data, and the timeline's rows (a collapsed group under the step that
 * asked for each child's tool call; expanded, the child's own steps and groups).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.ts';
import { main } from '../../../src/cli/main.ts';
import { childLogPath } from '../../../src/replay/child-logs.ts';
import { buildChart } from '../../../src/viz/graph.ts';
import { viewerData, type EmbeddedRun } from '../../../src/viz/html.ts';
import { parseSessionLog, type SessionForView } from '../../../src/viz/session.ts';
import { loadSessionTree, TreeLogError } from '../../../src/viz/session-tree.ts';
import { RunTree, type TimelineRow } from '../../../src/viz/viewer/run-tree.ts';
import { buildFrames, TOOL_CALL } from '../../../src/viz/viewer/session-model.ts';
import { recordAgentTree } from './agent-tree-fixture.ts';

const chart = buildChart();

/** The page's tree: the root's events come in through addSteps, as the page does it. */
function pageTree(session: EmbeddedRun): RunTree {
  const tree = new RunTree(chart, session);
  tree.root.model.addSteps(session.events);
  return tree;
}

const label = (row: TimelineRow) => (row.kind === 'group' ? `group ${row.run.key}` : `${row.run.key || 'root'}:${row.step}`);

/** The step of `frames` whose effects ask for tool call `id` (read from the effect summaries, not the model). */
function stepAsking(session: SessionForView, id: string): number {
  return buildFrames(session).findIndex((f) => f.effects.some((e) => (e.type === 'enqueue_tool' || e.type === 'run_tools') && e.summary.includes(`[${id}]`)));
}

describe('the viewer on a tree of runs', () => {
  let log: string;
  let session: SessionForView;
  beforeAll(async () => {
    ({ log } = await recordAgentTree());
    session = loadSessionTree(log);
  });

  it('reads every subagent log beside the log, recursively, with its agent name', () => {
    expect(session.children!.map((c) => [c.toolUseId, c.agent])).toEqual([
      ['toolu_a', 'Explore'],
      ['toolu_b', 'Review'],
    ]);
    const explore = session.children![0]!.session;
    expect(explore.children!.map((c) => [c.toolUseId, c.agent])).toEqual([['toolu_c', 'Lookup']]);
    expect(explore.events).toEqual(parseSessionLog(readFileSync(childLogPath(log, ['toolu_a']), 'utf8')).events);
    expect(session.children![1]!.session.children).toBeUndefined();
  });

  it('embeds the tree in the page data', () => {
    const data = viewerData(session);
    const [explore, review] = data.session!.children!;
    expect(explore!.toolUseId).toBe('toolu_a');
    expect(explore!.agent).toBe('Explore');
    expect(explore!.events.length).toBe(session.children![0]!.session.events.length);
    expect(explore!.children![0]!.params.querySource).toBe('agent:Lookup');
    expect(review!.children).toBeUndefined();
    // A log without children embeds as before.
    expect(viewerData({ ...session, children: undefined }).session!.children).toBeUndefined();
  });

  it('lists each child as a collapsed group right after the step that asked for its tool call', () => {
    const tree = pageTree(viewerData(session).session!);
    const rows = tree.rows(new Set());
    const atA = stepAsking(session, 'toolu_a');
    const atB = stepAsking(session, 'toolu_b');
    expect(atA).toBeGreaterThan(0);
    expect(atB).toBeGreaterThanOrEqual(atA);
    const labels = rows.map(label);
    // The root's steps, in order, with the two groups only.
    expect(labels.filter((l) => l.startsWith('root:'))).toEqual(buildFrames(session).map((_, i) => `root:${i}`));
    expect(labels.filter((l) => l.startsWith('group'))).toEqual(['group toolu_a', 'group toolu_b']);
    expect(labels.indexOf('group toolu_a')).toBe(labels.indexOf(`root:${atA}`) + 1);
    expect(labels.indexOf('group toolu_b')).toBe(labels.indexOf(`root:${atB}`) + (atA === atB ? 2 : 1));
    // The header's summary: the agent, the child's step count (its initial state included) and its terminal.
    const explore = tree.find(['toolu_a'])!;
    expect(tree.summary(explore)).toEqual({ agent: 'Explore', kind: 'subagent', differs: false, toolUseId: 'toolu_a', steps: session.children![0]!.session.events.length + 1, terminal: 'completed' });
    expect(tree.summary(tree.find(['toolu_b'])!).agent).toBe('Review');
  });

  it('an expanded group lists the child steps under it, one level in, with the grandchild collapsed', () => {
    const tree = pageTree(viewerData(session).session!);
    const explore = session.children![0]!.session;
    const labels = tree.rows(new Set(['toolu_a'])).map(label);
    const start = labels.indexOf('group toolu_a');
    const childSteps = buildFrames(explore).map((_, i) => `toolu_a:${i}`);
    const atC = stepAsking(explore, 'toolu_c');
    // The child's steps follow its header, with the grandchild's group after the step that asked for it.
    const expected = [...childSteps.slice(0, atC + 1), 'group toolu_a/toolu_c', ...childSteps.slice(atC + 1)];
    expect(labels.slice(start + 1, start + 1 + expected.length)).toEqual(expected);
    expect(labels).not.toContain('toolu_a/toolu_c:0');
    expect(tree.find(['toolu_a'])!.depth).toBe(1);
    // Opened too, the grandchild's steps appear inside the child's, two levels in.
    const deeper = tree.rows(new Set(['toolu_a', 'toolu_a/toolu_c']));
    const lookup = deeper.filter((r) => r.kind === 'step' && r.run.key === 'toolu_a/toolu_c');
    expect(lookup.length).toBe(session.children![0]!.session.children![0]!.session.events.length + 1);
    expect(lookup.every((r) => r.run.depth === 2)).toBe(true);
    // An open grandchild under a closed child is not listed.
    expect(tree.rows(new Set(['toolu_a/toolu_c'])).some((r) => r.run.key === 'toolu_a/toolu_c' && r.kind === 'step')).toBe(false);
  });

  it("a child step shows the child's own state and transitions, as the child's log folds on its own", () => {
    const tree = pageTree(viewerData(session).session!);
    for (const [path, child] of [
      [['toolu_b'], session.children![1]!.session],
      [['toolu_a', 'toolu_c'], session.children![0]!.session.children![0]!.session],
    ] as const) {
      const model = tree.find(path)!.model;
      const frames = buildFrames(child);
      expect(model.length).toBe(frames.length);
      for (let i = 0; i < frames.length; i++) {
        const frame = model.detail(i).frame;
        expect([frame.state, frame.transitions, frame.counters]).toEqual([frames[i]!.state, frames[i]!.transitions, frames[i]!.counters]);
      }
      expect(model.terminal).toBe('completed');
      expect(model.params.querySource).toBe(`agent:${path.at(-1) === 'toolu_b' ? 'Review' : 'Lookup'}`);
    }
  });

  it('a filter keeps the matching steps of the root and of open children, and every group header', () => {
    const tree = pageTree(viewerData(session).session!);
    const rows = tree.rows(new Set(['toolu_a']), (e) => (e.flags & TOOL_CALL) !== 0);
    const steps = rows.filter((r) => r.kind === 'step');
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.every((r) => r.kind === 'step' && (r.run.model.entries[r.step]!.flags & TOOL_CALL) !== 0)).toBe(true);
    expect(steps.some((r) => r.run.key === 'toolu_a')).toBe(true);
    expect(rows.filter((r) => r.kind === 'group').map((r) => r.run.key)).toEqual(['toolu_a', 'toolu_a/toolu_c', 'toolu_b']);
  });

  it('a child whose log stops before it ended has no terminal (the header says unfinished)', () => {
    const review = session.children![1]!;
    const cut = { ...session, children: [{ ...review, session: { ...review.session, events: review.session.events.slice(0, 3) } }] };
    const tree = pageTree(viewerData(cut).session!);
    expect(tree.summary(tree.find(['toolu_b'])!)).toEqual({ agent: 'Review', kind: 'subagent', differs: false, toolUseId: 'toolu_b', steps: 4, terminal: null });
  });

  it("puts a child whose tool call the parent's log never asks for after the parent's last step", () => {
    const orphan = { ...session, children: [{ ...session.children![1]!, toolUseId: 'toolu_unknown' }] };
    const rows = pageTree(viewerData(orphan).session!).rows(new Set()).map(label);
    expect(rows.at(-1)).toBe('group toolu_unknown');
    expect(rows.at(-2)).toBe(`root:${session.events.length}`);
  });

  it('a child log that is not a session log is an error that names the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-viz-tree-bad-'));
    const copy = join(dir, 'run.jsonl');
    copyFileSync(log, copy);
    mkdirSync(join(dir, 'run.agents'));
    writeFileSync(join(dir, 'run.agents', 'toolu_x.jsonl'), '{"kind":"event"}\n');
    expect(() => loadSessionTree(copy)).toThrow(TreeLogError);
    expect(() => loadSessionTree(copy)).toThrow(/run\.agents\/toolu_x\.jsonl:1: expected kind "header"/);
  });
});

describe('turnloop viz on a tree of runs', () => {
  function fakeIo(cwd: string): CliIo & { out: string; err: string } {
    const io = { out: '', err: '', stdout: { write: (t: string) => (io.out += t) }, stderr: { write: (t: string) => (io.err += t) }, env: {}, cwd };
    return io;
  }
  const embedded = (html: string) => JSON.parse(/<script type="application\/json" id="turnloop-data">(.*?)<\/script>/s.exec(html)![1]!) as { session: EmbeddedRun };

  it('embeds the subagent logs beside the log and says how many', async () => {
    const { dir } = await recordAgentTree();
    const io = fakeIo(dir);
    expect(await main(['viz', 'run.jsonl', '--out', 'view.html'], io)).toBe(0);
    expect(io.err).toMatch(/, 3 subagent runs\)/);
    expect(io.err).not.toContain('warning');
    const data = embedded(readFileSync(join(dir, 'view.html'), 'utf8'));
    expect(data.session.children!.map((c) => c.agent)).toEqual(['Explore', 'Review']);
    expect(data.session.children![0]!.children![0]!.agent).toBe('Lookup');
  });

  it('exits 2 naming the child log that is not a session log, and warns about one that does not replay', async () => {
    const { dir, log } = await recordAgentTree();
    const child = childLogPath(log, ['toolu_b']);
    const good = readFileSync(child, 'utf8');
    writeFileSync(child, good.replace('"looks fine"', '"looks FINE"'));
    const warned = fakeIo(dir);
    expect(await main(['viz', 'run.jsonl', '--out', 'view.html'], warned)).toBe(0);
    expect(warned.err).toMatch(/warning: run\.agents\/toolu_b\.jsonl does not replay as recorded/);
    writeFileSync(child, 'not json\n');
    const io = fakeIo(dir);
    expect(await main(['viz', 'run.jsonl', '--out', 'view.html'], io)).toBe(2);
    expect(io.err).toMatch(/run\.agents\/toolu_b\.jsonl.*not JSON/);
  });
});
