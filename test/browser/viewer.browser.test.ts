import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mermaidDiagrams } from '../../src/viz/export-mermaid.ts';
import { overlaps, type Box } from '../unit/viz/overlap.ts';
import { exportScxml } from '../../src/viz/export-scxml.ts';
import { buildChart } from '../../src/viz/graph.ts';
import { renderViewerHtml, viewerData } from '../../src/viz/html.ts';
import { parseSessionLog } from '../../src/viz/session.ts';
import { hasChromium, launchChromium, SKIP_REASON, type Browser } from './browser.ts';
import { buildFrames } from '../../src/viz/viewer/session-model.ts';
import { hostileSession, HOSTILE_TEXT, longSession, minimalLog, recordedLog, toolUsingSession } from '../unit/viz/fixtures.ts';

/** Screenshots land here, for a human to look at. */
export const SCREENSHOT_DIR = join(tmpdir(), 'turnloop-viz-screenshots');

if (!hasChromium) console.warn(`viewer browser tests ${SKIP_REASON}`);

const chart = buildChart();
const byId = new Map(chart.transitions.map((t) => [t.id, t]));

function writePage(name: string, html: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'turnloop-viewer-'));
  const path = join(dir, name);
  writeFileSync(path, html);
  return pathToFileURL(path).href;
}

describe.skipIf(!hasChromium)(hasChromium ? 'the viewer in headless Chromium' : `the viewer in headless Chromium (${SKIP_REASON})`, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('steps to an event and highlights its state and the transitions it took, as the frames folded in Node', async () => {
    const session = parseSessionLog(recordedLog(toolUsingSession()));
    const frames = buildFrames(session);
    const url = writePage('view.html', renderViewerHtml(viewerData(session)));
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(url);

    // Every step the page folds itself shows the state and transitions Node's fold gives.
    for (let i = 0; i < frames.length; i++) {
      if (i > 0) await page.keyboard.press('ArrowRight');
      expect(await page.getAttribute('body', 'data-active-state'), `step ${i}`).toBe(frames[i]!.state);
      expect(await page.getAttribute('body', 'data-taken'), `step ${i}`).toBe(frames[i]!.transitions.join(' '));
    }
    const target = frames.findIndex((f) => f.event?.type === 'tools_finished');
    await page.keyboard.press('Home');
    for (let i = 0; i < target; i++) await page.keyboard.press('ArrowRight');
    expect(await page.getAttribute('g.node.active', 'data-state')).toBe('collectingAttachments');
    const taken = await page.$$eval('g.edge.taken', (els) => els.map((e) => e.getAttribute('data-transition')));
    const expected = frames[target]!.transitions.filter((id) => byId.get(id)!.target !== null);
    expect(taken.sort()).toEqual([...expected].sort());
    expect(expected).toContain('runningTools|tools_finished|0');
    expect(await page.textContent('#position')).toBe(`step ${target} / ${frames.length - 1}`);
    expect(await page.textContent('#pending')).toContain('collect_attachments');
    // The full payload of the event and a structural diff of the state.
    expect(JSON.parse((await page.textContent('#payload'))!)).toEqual(session.events[target - 1]);
    const changes = await page.$$eval('#changes li .path', (els) => els.map((e) => e.textContent));
    expect(changes).toContain('value');
    expect(changes.some((p) => p!.startsWith('context.'))).toBe(true);
    expect(await page.textContent('#announce')).toBe(`Step ${target} of ${frames.length - 1}: tools_finished, now in collectingAttachments`);

    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'viewer-tools-finished.png') });

    // A message row opens its full text.
    await page.click('#messages .vl-row:has-text("a.ts")');
    expect(await page.textContent('#message-detail')).toContain('a.ts\nb.ts');

    await page.click('#prev');
    expect(await page.getAttribute('body', 'data-active-state')).toBe(frames[target - 1]!.state);
    await page.$eval('#scrubber', (el, last) => {
      (el as HTMLInputElement).value = String(last);
      el.dispatchEvent(new Event('input'));
    }, frames.length - 1);
    expect(await page.getAttribute('body', 'data-active-state')).toBe('completed');
    expect(await page.textContent('#state-note')).toBe('terminal: completed');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'viewer-completed.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('navigates by hash, timeline keys, search, filters and jumps; shows self-transitions', async () => {
    const session = parseSessionLog(minimalLog(longSession(20)));
    const frames = buildFrames(session);
    const url = writePage('nav.html', renderViewerHtml(viewerData(session)));
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${url}#step=5`);
    const state = () => page.getAttribute('body', 'data-active-state');
    expect(await page.textContent('#position')).toBe(`step 5 / ${frames.length - 1}`);
    // hashchange after load.
    await page.evaluate(() => (location.hash = '#step=9'));
    await page.waitForFunction(() => document.getElementById('position')!.textContent!.startsWith('step 9 '));
    expect(await state()).toBe(frames[9]!.state);
    // The timeline is a keyboard listbox.
    await page.focus('#timeline');
    await page.keyboard.press('ArrowDown');
    expect(await page.getAttribute('#timeline', 'aria-activedescendant')).toBe('step-10');
    expect(await page.getAttribute('#step-10', 'aria-selected')).toBe('true');
    await page.keyboard.press('Home');
    expect(await page.textContent('#position')).toMatch(/^step 0 /);
    // Jump to the next Continue and the next tool call.
    await page.click('#next-continue');
    const firstContinue = frames.findIndex((f, i) => i > 0 && f.transitions.some((id) => byId.get(id)!.continue));
    expect(await page.textContent('#position')).toMatch(new RegExp(`^step ${firstContinue} `));
    await page.click('#next-tool');
    const firstTool = frames.findIndex((f, i) => i > firstContinue && f.effects.some((e) => e.type === 'run_tools' || e.type === 'enqueue_tool'));
    expect(await page.textContent('#position')).toMatch(new RegExp(`^step ${firstTool} `));
    // A step that stays in its state pulses the state and lists the targetless transition.
    const stay = frames.findIndex((f, i) => i > 0 && f.state === frames[i - 1]!.state && f.transitions.length > 0);
    await page.evaluate((i) => (location.hash = `#step=${i}`), stay);
    await page.waitForFunction((i) => document.getElementById('position')!.textContent!.startsWith(`step ${i} `), stay);
    expect(await page.$$eval('g.node.pulse-a, g.node.pulse-b', (els) => els.map((e) => e.getAttribute('data-state')))).toEqual([frames[stay]!.state]);
    expect(await page.textContent('#taken')).toContain('↺ stays');
    // Search and filter.
    await page.fill('#search', 'Round 7:');
    expect(await page.textContent('#match-count')).toBe(`1 of ${frames.length} steps`);
    expect(await page.textContent('#timeline')).toContain('model_message');
    await page.fill('#search', '');
    await page.selectOption('#filter', 'continue');
    const continues = frames.filter((f, i) => i > 0 && f.transitions.some((id) => byId.get(id)!.continue)).length;
    expect(await page.textContent('#match-count')).toBe(`${continues} of ${frames.length} steps`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('zooms with the wheel and keys, pans by dragging, fits, and follows the active state', async () => {
    const page = await browser.context.newPage();
    await page.goto(writePage('zoom.html', renderViewerHtml(viewerData(parseSessionLog(minimalLog(toolUsingSession()))))));
    const viewport = () => page.evaluate(() => window.turnloopViewer!.chart.viewport());
    const zoomLabel = async () => Number((await page.textContent('#zoom-level'))!.replace('%', ''));
    const r = (await (await page.$('#chart-pane'))!.boundingBox())!;
    await page.mouse.move(r.x + r.width / 2, r.y + r.height / 2);
    const before = await viewport();
    await page.mouse.wheel(0, -400);
    await page.waitForFunction((s) => window.turnloopViewer!.chart.viewport().scale > s, before.scale);
    const zoomed = await viewport();
    expect(await zoomLabel()).toBe(Math.round(zoomed.scale * 100));
    await page.focus('#chart-pane');
    await page.keyboard.press('-');
    expect((await viewport()).scale).toBeCloseTo(zoomed.scale * 0.8, 5);
    await page.keyboard.press('ArrowLeft');
    expect((await viewport()).tx).toBeGreaterThan(zoomed.tx);
    await page.keyboard.press('0');
    expect((await viewport()).scale).toBeCloseTo(1, 9);
    const v0 = await viewport();
    await page.mouse.move(r.x + 300, r.y + 300);
    await page.mouse.down();
    await page.mouse.move(r.x + 200, r.y + 250, { steps: 4 });
    await page.mouse.up();
    const v1 = await viewport();
    expect(v1.tx).toBeCloseTo(v0.tx - 100, 0);
    expect(v1.ty).toBeCloseTo(v0.ty - 50, 0);
    // "Whole" shows the whole chart inside the pane.
    await page.click('#overview');
    const fitted = await page.evaluate(() => {
      const v = window.turnloopViewer!.chart.viewport();
      const svg = document.getElementById('chart')!;
      const w = Number(svg.getAttribute('width')) * v.scale;
      const h = Number(svg.getAttribute('height')) * v.scale;
      const pane = document.getElementById('chart-pane')!;
      return { inside: v.tx >= -0.5 && v.ty >= -0.5 && v.tx + w <= pane.clientWidth + 0.5 && v.ty + h <= pane.clientHeight + 0.5, scale: v.scale };
    });
    expect(fitted.inside).toBe(true);
    expect(fitted.scale).toBeLessThan(1);
    // Follow: after a step, the active state is in the middle of the pane at a readable scale.
    await page.check('#follow');
    await page.keyboard.press('End');
    const centre = await page.evaluate(() => {
      const v = window.turnloopViewer!.chart.viewport();
      const b = (document.querySelector('g.node.active') as SVGGraphicsElement).getBBox();
      const pane = document.getElementById('chart-pane')!;
      return { dx: v.tx + (b.x + b.width / 2) * v.scale - pane.clientWidth / 2, dy: v.ty + (b.y + b.height / 2) * v.scale - pane.clientHeight / 2, scale: v.scale };
    });
    expect(Math.abs(centre.dx)).toBeLessThan(1);
    expect(Math.abs(centre.dy)).toBeLessThan(1);
    expect(centre.scale).toBeGreaterThanOrEqual(0.8);
    await page.close();
  });

  it('takes steps fed later through viewer.addSteps() (the live-feed entry point)', async () => {
    const session = parseSessionLog(minimalLog(toolUsingSession()));
    const half = Math.floor(session.events.length / 2);
    const partial = { ...session, events: session.events.slice(0, half) };
    const page = await browser.context.newPage();
    await page.goto(writePage('live.html', renderViewerHtml(viewerData(partial))));
    expect(await page.evaluate(() => window.turnloopViewer!.length)).toBe(half + 1);
    const added = await page.evaluate((events) => window.turnloopViewer!.addSteps(events as never), session.events.slice(half));
    expect(added).toBe(session.events.length - half);
    await page.keyboard.press('End');
    expect(await page.getAttribute('body', 'data-active-state')).toBe('completed');
    expect(await page.textContent('#position')).toBe(`step ${session.events.length} / ${session.events.length}`);
    await page.close();
  });

  it('never interprets HTML from a session: no dialog, no injected element', async () => {
    const data = viewerData(parseSessionLog(minimalLog(hostileSession())));
    const url = writePage('hostile.html', renderViewerHtml(data));
    const page = await browser.context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(url);
    for (let i = 0; i < data.session!.events.length; i++) await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(200);
    expect(dialogs).toEqual([]);
    expect(await page.$$eval('img', (els) => els.length)).toBe(0);
    expect(await page.$$eval('script', (els) => els.length)).toBe(2);
    expect(await page.$$eval('[onerror]', (els) => els.length)).toBe(0);
    // The markup is there, as text.
    expect(await page.textContent('#messages')).toContain(HOSTILE_TEXT.slice(0, 40));
    const withMarkup = data.session!.events.findIndex((e) => e.type === 'model_message') + 1;
    await page.evaluate((i) => (location.hash = `#step=${i}`), withMarkup);
    await page.waitForFunction((i) => document.getElementById('position')!.textContent!.startsWith(`step ${i} `), withMarkup);
    expect(await page.textContent('#payload')).toContain('<img src=x onerror=alert(1)>');
    expect(await page.textContent('#start-history')).toContain('<img src=x onerror=alert(1)>');
    await page.close();
  });

  it('mermaid 11 parses and renders every Mermaid diagram at most ~1,400 px wide, no label over a label or a node', async () => {
    const page = await browser.context.newPage();
    await page.setContent('<!DOCTYPE html><html><body><div id="out"></div></body></html>');
    // Mermaid lays labels out with Arial's widths; where Arial is not metric-compatible (a DejaVu-only machine),
    // labels land on nodes. Say so plainly: .ci/run installs fonts-liberation and .ci/check-browser-env checks it.
    const widths = await page.evaluate(() => {
      const context = document.createElement('canvas').getContext('2d')!;
      const width = (font: string) => ((context.font = `16px ${font}`), context.measureText('↻ collapse_drain_retry aborted_tools').width);
      // A family that is not installed falls through to the next one: monospace shows whether it was there.
      return { arial: width('Arial, monospace'), liberation: width('"Liberation Sans", monospace'), monospace: width('monospace') };
    });
    const fonts = 'Chromium must resolve Arial to Liberation Sans (apt-get install -y fonts-liberation; see .ci/check-browser-env)';
    expect(widths.liberation, fonts).not.toBe(widths.monospace);
    expect(widths.arial, fonts).toBe(widths.liberation);
    const require = createRequire(import.meta.url);
    await page.addScriptTag({ path: require.resolve('mermaid/dist/mermaid.min.js') });
    await page.evaluate(() => (window as unknown as { mermaid: { initialize(o: object): void } }).mermaid.initialize({ startOnLoad: false }));
    for (const d of mermaidDiagrams()) {
      const result = await page.evaluate(async ({ text, name }) => {
        const mermaid = (window as unknown as { mermaid: { parse(t: string): Promise<unknown>; render(id: string, t: string): Promise<{ svg: string }> } }).mermaid;
        await mermaid.parse(text);
        const { svg } = await mermaid.render(`d${name.replace(/\W/g, '')}`, text);
        const out = document.getElementById('out')!;
        out.innerHTML = svg; // mermaid's own output for our own text, in a test page
        const el = out.querySelector('svg')!;
        const width = el.viewBox.baseVal.width;
        const box = (e: Element, kind: string, name: string) => {
          const r = e.getBoundingClientRect();
          return { kind, name, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom };
        };
        const labels = [...el.querySelectorAll('g.edgeLabel')].filter((e) => (e.textContent ?? '').trim() !== '' && e.getBoundingClientRect().width > 0).map((e) => box(e, 'label', e.textContent!.trim().slice(0, 50)));
        const nodes = [...el.querySelectorAll('g.node')].map((e) => box(e, 'node', e.id));
        return { width, labels, nodes, states: el.querySelectorAll('g.node').length };
      }, { text: d.text, name: d.name });
      expect(result.width, d.name).toBeGreaterThan(200);
      expect(result.width, `${d.name} is ${result.width} px wide`).toBeLessThanOrEqual(1400);
      expect(result.labels.length, d.name).toBeGreaterThan(2);
      expect(overlaps([...result.labels, ...result.nodes] as Box[]), d.name).toEqual([]);
      console.log(`mermaid ${d.name}: ${Math.round(result.width)} px wide, ${result.states} nodes, ${result.labels.length} labels`);
    }
    const broken = await page.evaluate(async () => {
      try {
        await (window as unknown as { mermaid: { parse(t: string): Promise<unknown> } }).mermaid.parse('stateDiagram-v2\n  a --> : x ;; {');
        return 'accepted';
      } catch {
        return 'rejected';
      }
    });
    expect(broken).toBe('rejected');
    await page.close();
  });

  it('the SCXML export is well-formed for DOMParser, with 11 <final> states', async () => {
    const page = await browser.context.newPage();
    const result = await page.evaluate((xml) => {
      const doc = new DOMParser().parseFromString(xml, 'application/xml');
      return {
        errors: doc.getElementsByTagName('parsererror').length,
        finals: doc.getElementsByTagNameNS('http://www.w3.org/2005/07/scxml', 'final').length,
      };
    }, exportScxml());
    expect(result).toEqual({ errors: 0, finals: 11 });
    await page.close();
  });
});
