/**
 * The viewer on a long session, in headless Chromium: a generated 1,000-round run (about 8,000 events).
 *
 * The figure asserted is the issue's: a step costs under 16 ms. It is measured as the CPU time the page's
 * renderer processes spend per step (step(), diff, panels, chart, style and layout, forced after every step),
 * read from /proc: on a shared 2-core machine wall-clock time measures the other jobs as much as the page, and a
 * step that needs under 16 ms of CPU fits in a frame on a free core. Wall-clock times are printed alongside, and
 * a step must cost about the same at 8,000 events as at 160 (constant cost per step). The numbers are recorded
 * in docs/statechart.md.
 *
 * Issue 42's figures are asserted too: at 8,000 events a step takes at most 25 ms of wall clock (median of the
 * walk; the page's first screen now holds the conversation as well) and the page's JavaScript heap, after a
 * garbage collection, stays under 1.2 KB per event (the viewer used to keep every step's effects, and a model
 * call's effect carries its whole request).
 *
 * A heavy suite of its own (`npm run test:perf`, run by .ci/run after `npm test`).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderViewerHtml, viewerData } from '../../src/viz/html.ts';
import { parseSessionLog, type SessionForView } from '../../src/viz/session.ts';
import { loadSessionTree } from '../../src/viz/session-tree.ts';
import { recordAgentTree } from '../unit/viz/agent-tree-fixture.ts';
import { hasChromium, launchChromium, SKIP_REASON, type Browser } from '../browser/browser.ts';
import { longSession, minimalLog } from '../unit/viz/fixtures.ts';
import { rendererCpuMs } from './renderer-cpu.ts';

/** The figure. */
const MAX_STEP_MS = 16;
/** Issue 42: the wall-clock median of a step at 8,000 events, and the heap per event. */
const MAX_WALL_MEDIAN_MS = 25;
const MAX_HEAP_BYTES_PER_EVENT = 1.2 * 1024;
/** Loading folds every event with step() in the page (wall clock, so generous). */
const MAX_LOAD_MS = 10_000;

interface Walk {
  steps: number;
  wallMedian: number;
  wallP95: number;
}

/** Walks the page: 300 pseudo-random jumps, 300 steps forward, 100 back; every step forces style and layout. */
const WALK = `(() => {
  const v = window.turnloopViewer;
  const times = [];
  const timeOf = (index) => { const t = performance.now(); v.goTo(index); document.body.getBoundingClientRect(); times.push(performance.now() - t); };
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 300; i++) timeOf(Math.floor(next() * v.length));
  v.goTo(Math.floor(v.length / 2) - 150);
  for (let i = 0; i < 300; i++) timeOf(v.current + 1);
  for (let i = 0; i < 100; i++) timeOf(v.current - 1);
  times.sort((a, b) => a - b);
  return { steps: times.length, wallMedian: times[Math.floor(times.length / 2)], wallP95: times[Math.floor(times.length * 0.95)] };
})()`;

/** `withChildren`: three subagent runs under the tool calls of rounds 10, 500 and 990, so the timeline lists rows. */
async function writePage(rounds: number, withChildren = false): Promise<{ url: string; events: number }> {
  let session: SessionForView = parseSessionLog(minimalLog(longSession(rounds)));
  if (withChildren) {
    const child = loadSessionTree((await recordAgentTree()).log).children![0]!;
    session = { ...session, children: [10, 500, 990].map((i) => ({ ...child, toolUseId: `tu${i}` })) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'turnloop-viewer-perf-'));
  writeFileSync(join(dir, 'view.html'), renderViewerHtml(viewerData(session)));
  return { url: pathToFileURL(join(dir, 'view.html')).href, events: session.events.length };
}

describe.skipIf(!hasChromium)(hasChromium ? 'the viewer on a 1,000-round session' : `the viewer on a 1,000-round session (${SKIP_REASON})`, () => {
  let browser: Browser;
  let long: { url: string; events: number };
  let short: { url: string; events: number };
  let tree: { url: string; events: number };
  beforeAll(async () => {
    long = await writePage(1000);
    short = await writePage(20);
    tree = await writePage(1000, true);
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
  });

  async function measure(url: string): Promise<Walk & { cpuPerStep: number; loadMs: number; length: number; heapBytes: number; drawnEntries: number; entries: number }> {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    await page.waitForFunction(() => window.turnloopViewer !== undefined, null, { timeout: 60_000 });
    const loadMs = await page.evaluate(() => window.turnloopViewer!.readyAt);
    const length = await page.evaluate(() => window.turnloopViewer!.length);
    // The heap the page keeps once loaded: what is still reachable after a full collection.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heapBytes = ((await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
    await cdp.detach();
    const { drawnEntries, entries } = await page.evaluate(() => ({ drawnEntries: document.querySelectorAll('#conversation .conv').length, entries: window.turnloopViewer!.conversation.length }));
    const before = rendererCpuMs(browser.profile);
    const walk = (await page.evaluate(WALK)) as Walk;
    const cpu = rendererCpuMs(browser.profile) - before;
    expect(errors).toEqual([]);
    await page.close();
    return { ...walk, cpuPerStep: cpu / walk.steps, loadMs, length, heapBytes, drawnEntries, entries };
  }

  it('loads, then shows any step with under 16 ms of work, as cheaply as in a short session', { retry: 2 }, async () => {
    const small = await measure(short.url);
    const big = await measure(long.url);
    const line = (name: string, m: typeof big) =>
      `${name}: ${m.length} steps loaded in ${m.loadMs.toFixed(0)} ms; per step ${m.cpuPerStep.toFixed(2)} ms CPU, wall median ${m.wallMedian.toFixed(2)} ms, p95 ${m.wallP95.toFixed(2)} ms; ` +
      `heap ${(m.heapBytes / 1024 / 1024).toFixed(1)} MB (${(m.heapBytes / (m.length - 1)).toFixed(0)} bytes per event); conversation ${m.entries} entries, ${m.drawnEntries} drawn`;
    console.log(`viewer ${line('1,000 rounds', big)}\nviewer ${line('20 rounds', small)}`);
    expect(big.length).toBe(long.events + 1);
    expect(big.wallMedian).toBeLessThanOrEqual(MAX_WALL_MEDIAN_MS);
    expect(big.heapBytes / long.events).toBeLessThan(MAX_HEAP_BYTES_PER_EVENT);
    // The conversation holds every entry but draws a window of them.
    expect(big.entries).toBeGreaterThan(2000);
    expect(big.drawnEntries).toBeLessThanOrEqual(40);
    expect(big.loadMs).toBeLessThan(MAX_LOAD_MS);
    expect(big.cpuPerStep).toBeLessThan(MAX_STEP_MS);
    // Constant cost per step: 50 times the events, about the same cost (the old viewer grew linearly).
    expect(big.cpuPerStep).toBeLessThan(small.cpuPerStep * 2 + 1);
  });

  it('with subagent groups in the timeline (rows listed one by one), a step costs the same; opening a group is cheap', { retry: 2 }, async () => {
    const small = await measure(short.url);
    const big = await measure(tree.url);
    const page = await browser.context.newPage();
    await page.goto(tree.url);
    await page.waitForFunction(() => window.turnloopViewer !== undefined, null, { timeout: 60_000 });
    const toggle = await page.evaluate(() => {
      const v = window.turnloopViewer!;
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        v.expand(['tu500'], i % 2 === 0);
        document.body.getBoundingClientRect();
        times.push(performance.now() - t);
      }
      // Into a closed child from the root: the group opens (the rows are rebuilt) and the child's step is shown.
      const into: number[] = [];
      for (let i = 0; i < 7; i++) {
        v.goTo(0, []);
        v.expand(['tu990'], false);
        const t = performance.now();
        v.goTo(3, ['tu990']);
        document.body.getBoundingClientRect();
        into.push(performance.now() - t);
      }
      return { median: times.sort((a, b) => a - b)[10]!, intoChild: into.sort((a, b) => a - b)[3]!, run: v.run.join('/') };
    });
    await page.close();
    console.log(
      `viewer with 3 subagent groups: ${big.length} root steps loaded in ${big.loadMs.toFixed(0)} ms; per step ${big.cpuPerStep.toFixed(2)} ms CPU, wall median ${big.wallMedian.toFixed(2)} ms, p95 ${big.wallP95.toFixed(2)} ms; ` +
        `open/close a group ${toggle.median.toFixed(2)} ms (wall median), first step of a closed child ${toggle.intoChild.toFixed(2)} ms (wall median)`,
    );
    expect(toggle.run).toBe('tu990');
    expect(big.length).toBe(tree.events + 1);
    expect(big.cpuPerStep).toBeLessThan(MAX_STEP_MS);
    expect(big.cpuPerStep).toBeLessThan(small.cpuPerStep * 2 + 1);
  });
});
