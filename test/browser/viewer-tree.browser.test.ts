/**
 * The viewer on a recorded tree of runs, in headless Chromium: each subagent is a collapsed group under the step
 * that ran its tool call; opening it and selecting one of its steps shows the CHILD's state on the chart and in
 * the panels (as the child's own log folds in Node); keyboard navigation, addresses and the virtual list work
 * across the tree.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.ts';
import { main } from '../../src/cli/main.ts';
import { buildChart } from '../../src/viz/graph.ts';
import { renderViewerHtml, viewerData } from '../../src/viz/html.ts';
import type { SessionForView } from '../../src/viz/session.ts';
import { loadSessionTree } from '../../src/viz/session-tree.ts';
import { buildFrames } from '../../src/viz/viewer/session-model.ts';
import type { Frame } from '../../src/viz/frames.ts';
import { recordAgentTree } from '../unit/viz/agent-tree-fixture.ts';
import { hasChromium, launchChromium, SKIP_REASON, type Browser } from './browser.ts';

/** Screenshots land here, for a human to look at. */
const SCREENSHOT_DIR = join(tmpdir(), 'turnloop-viz-screenshots');

const chart = buildChart();
const byId = new Map(chart.transitions.map((t) => [t.id, t]));

describe.skipIf(!hasChromium)(hasChromium ? 'the viewer on a tree of runs in headless Chromium' : `the viewer on a tree of runs (${SKIP_REASON})`, () => {
  let browser: Browser;
  let session: SessionForView;
  let url: string;
  beforeAll(async () => {
    const { dir, log } = await recordAgentTree();
    session = loadSessionTree(log);
    writeFileSync(join(dir, 'view.html'), renderViewerHtml(viewerData(session)));
    url = pathToFileURL(join(dir, 'view.html')).href;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(hash = '') {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(url + hash);
    return { page, errors };
  }
  const row = (id: string) => `[id="${id}"]`;
  type Page = Awaited<ReturnType<typeof open>>['page'];
  /** What the page shows: the run, the active state (body and chart), the transitions drawn as taken. */
  async function shown(page: Page) {
    return {
      run: await page.getAttribute('body', 'data-run'),
      state: await page.getAttribute('body', 'data-active-state'),
      chartActive: await page.getAttribute('g.node.active', 'data-state'),
      taken: (await page.$$eval('g.edge.taken', (els) => els.map((e) => e.getAttribute('data-transition')))).sort(),
    };
  }
  const expectedOf = (run: string, frame: Frame) => ({
    run,
    state: frame.state,
    chartActive: frame.state,
    taken: frame.transitions.filter((id) => byId.get(id)!.target !== null).sort(),
  });

  it("opens a collapsed group, selects a child step and shows the child's state on the chart and in the panels", async () => {
    const { page, errors } = await open();
    const explore = session.children![0]!.session;
    const exploreFrames = buildFrames(explore);
    // Collapsed by default, with the agent, its step count and its terminal.
    expect(await page.getAttribute(row('group-toolu_a'), 'aria-expanded')).toBe('false');
    expect(await page.textContent(row('group-toolu_a'))).toBe(`▸ Explore · ${exploreFrames.length} steps · completed`);
    expect(await page.textContent(row('group-toolu_b'))).toContain('Review');
    expect(await page.$$('[id^="run-toolu_a-step-"]')).toHaveLength(0);
    expect(await page.textContent('#match-count')).toBe(`${session.events.length + 1} steps · 3 subagent runs`);

    // From the root's last step (all its messages listed) into the child (fewer messages).
    await page.keyboard.press('End');
    expect(await page.getAttribute('body', 'data-active-state')).toBe('completed');
    await page.click(row('group-toolu_a'));
    expect(await page.getAttribute(row('group-toolu_a'), 'aria-expanded')).toBe('true');
    expect(await page.$$('[id^="run-toolu_a-step-"]')).toHaveLength(exploreFrames.length);

    // A child step where the child is somewhere the root never is at step 0: running its own tool (Lookup).
    const k = exploreFrames.findIndex((f) => f.state === 'runningTools');
    expect(k).toBeGreaterThan(0);
    await page.click(row(`run-toolu_a-step-${k}`));
    expect(await shown(page)).toEqual(expectedOf('toolu_a', exploreFrames[k]!));
    expect(await page.textContent('#position')).toBe(`step ${k} / ${exploreFrames.length - 1}`);
    expect(await page.textContent('#run-path')).toBe('main › Explore [toolu_a]');
    expect(await page.getAttribute(row(`run-toolu_a-step-${k}`), 'aria-selected')).toBe('true');
    // The panels are the child's: its counters, its pending effects, the task it started from.
    const counter = async (name: string) => page.$eval(`#counters tr:has(td:text-is("${name}")) td.value`, (el) => el.textContent);
    expect(await counter('model calls')).toBe(String(exploreFrames[k]!.counters.modelCalls));
    expect(await counter('turn')).toBe(String(exploreFrames[k]!.counters.turnCount));
    expect(await page.textContent('#pending')).toContain('toolu_c');
    expect(await page.textContent('#start-history')).toContain('find auth');
    const listedMessages = () => page.$$eval('#messages .vl-row:not([hidden])', (els) => els.map((e) => e.textContent));
    const emittedBy = (frames: Frame[], step: number) => frames.slice(0, step + 1).flatMap((f) => f.emitted);
    expect((await listedMessages()).length).toBe(emittedBy(exploreFrames, k).length);
    expect((await listedMessages()).join('\n')).toContain('Lookup({"prompt":"where is validate()"})');
    expect(await page.textContent('#announce')).toBe(`Explore (toolu_a): Step ${k} of ${exploreFrames.length - 1}: ${explore.events[k - 1]!.type}, now in ${exploreFrames[k]!.state}`);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'viewer-subagent-step.png') });

    // → steps on inside the child run; the address names the child.
    await page.keyboard.press('ArrowRight');
    expect(await shown(page)).toEqual(expectedOf('toolu_a', exploreFrames[k + 1]!));
    await page.waitForFunction((h) => location.hash === h, `#run=toolu_a&step=${k + 1}`);

    // Back to a root step: the root's state again.
    const rootFrames = buildFrames(session);
    await page.click(row('step-2'));
    expect(await shown(page)).toEqual(expectedOf('', rootFrames[2]!));
    expect(await page.textContent('#run-path')).toBe('main');
    expect((await listedMessages()).length).toBe(emittedBy(rootFrames, 2).length);
    expect(await page.textContent('#start-history')).toContain('Where is auth, and is the change fine?');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the timeline keyboard walks into groups: → opens, ← closes, ↓ reaches the child steps and a grandchild', async () => {
    const { page, errors } = await open();
    const explore = session.children![0]!.session;
    const lookup = explore.children![0]!.session;
    await page.focus('#timeline');
    const active = () => page.getAttribute('#timeline', 'aria-activedescendant');
    // ↓ until the cursor rests on Explore's group header (the shown step stays the root's).
    for (let i = 0; i < 40 && (await active()) !== 'group-toolu_a'; i++) await page.keyboard.press('ArrowDown');
    expect(await active()).toBe('group-toolu_a');
    expect(await page.getAttribute('body', 'data-run')).toBe('');
    await page.keyboard.press('ArrowRight');
    expect(await page.getAttribute(row('group-toolu_a'), 'aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowLeft');
    expect(await page.getAttribute(row('group-toolu_a'), 'aria-expanded')).toBe('false');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowRight'); // open already: into the child's first step
    expect(await page.getAttribute('body', 'data-run')).toBe('toolu_a');
    expect(await active()).toBe('run-toolu_a-step-0');
    // ↓ through the child's steps to the grandchild's group, open it, step into it.
    for (let i = 0; i < 40 && (await active()) !== 'group-toolu_a/toolu_c'; i++) await page.keyboard.press('ArrowDown');
    expect(await active()).toBe('group-toolu_a/toolu_c');
    await page.keyboard.press(' ');
    await page.keyboard.press('ArrowDown');
    const lookupFrames = buildFrames(lookup);
    expect(await shown(page)).toEqual(expectedOf('toolu_a/toolu_c', lookupFrames[0]!));
    // End / Home still reach the last and first rows.
    await page.keyboard.press('End');
    expect(await active()).toBe('step-' + session.events.length);
    await page.keyboard.press('Home');
    expect(await active()).toBe('step-0');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("opens at a subagent's step from the address, its groups opened; a filter searches the open children too", async () => {
    const lookup = session.children![0]!.session.children![0]!.session;
    const lookupFrames = buildFrames(lookup);
    const { page, errors } = await open('#run=toolu_a/toolu_c&step=2');
    expect(await shown(page)).toEqual(expectedOf('toolu_a/toolu_c', lookupFrames[2]!));
    expect(await page.getAttribute(row('group-toolu_a'), 'aria-expanded')).toBe('true');
    expect(await page.getAttribute(row('group-toolu_a/toolu_c'), 'aria-expanded')).toBe('true');
    expect(await page.textContent('#run-path')).toBe('main › Explore [toolu_a] › Lookup [toolu_c]');
    // The Lookup child's answer is found by the search; Review's (closed) is not listed.
    await page.fill('#search', 'src/auth.ts:12');
    const ids = await page.$$eval('#timeline .vl-row:not([hidden])', (els) => els.map((e) => e.id));
    expect(ids.filter((id) => id.startsWith('run-toolu_a/toolu_c-step-')).length).toBeGreaterThan(0);
    expect(ids.some((id) => id.startsWith('run-toolu_b-'))).toBe(false);
    expect(ids).toContain('group-toolu_b');
    // An address that names no run (unknown, or malformed) leaves the page where it is.
    for (const hash of ['#run=toolu_zz&step=1', '#run=%E0%A4%A&step=1']) {
      // Resolves in a hashchange listener added after the page's own, so the page has handled it by then.
      await page.evaluate((h) => new Promise((done) => {
        addEventListener('hashchange', () => done(null), { once: true });
        location.hash = h;
      }), hash);
      expect(await page.getAttribute('body', 'data-run')).toBe('toolu_a/toolu_c');
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the two-subagents example as simulate --record wrote it and turnloop viz drew it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-viz-example-'));
    const example = new URL('../../examples/scenarios/two-subagents.json', import.meta.url).pathname;
    const io: CliIo & { err: string } = { err: '', stdout: { write: () => true }, stderr: { write: (t: string) => ((io.err += t), true) }, env: {}, cwd: dir } as never;
    expect(await main(['simulate', example, '--check', '--record', 'run.jsonl'], io), io.err).toBe(0);
    expect(await main(['viz', 'run.jsonl', '--out', 'view.html'], io), io.err).toBe(0);
    expect(io.err).toMatch(/, 2 subagent runs\)/);
    const tree = loadSessionTree(join(dir, 'run.jsonl'));
    const review = tree.children!.find((c) => c.agent === 'Review')!;
    const reviewFrames = buildFrames(review.session);
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(join(dir, 'view.html')).href);
    expect(readFileSync(join(dir, 'view.html'), 'utf8')).toContain(review.toolUseId);
    expect(await page.textContent(row(`group-${review.toolUseId}`))).toBe(`▸ Review · ${reviewFrames.length} steps · completed`);
    await page.click(row(`group-${review.toolUseId}`));
    // The step where the Review child runs its own Read call.
    const k = reviewFrames.findIndex((f) => f.state === 'runningTools');
    await page.click(row(`run-${review.toolUseId}-step-${k}`));
    expect(await shown(page)).toEqual(expectedOf(review.toolUseId, reviewFrames[k]!));
    expect(await page.textContent('#messages')).toContain('Read({"file_path":"src/auth/session.ts"}) [toolu_review_read]');
    expect(await page.textContent('#start-history')).toContain('Review src/auth/session.ts for security problems.');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'viewer-two-subagents.png') });
    expect(errors).toEqual([]);
    await page.close();
  });
});
