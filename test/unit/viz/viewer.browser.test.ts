import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportMermaid } from '../../../src/viz/export-mermaid.ts';
import { exportScxml } from '../../../src/viz/export-scxml.ts';
import { buildChart } from '../../../src/viz/graph.ts';
import { renderViewerHtml, viewerData } from '../../../src/viz/html.ts';
import { parseSessionLog } from '../../../src/viz/session.ts';
import { hasChromium, launchChromium, SKIP_REASON, type Browser } from './browser.ts';
import { hostileSession, HOSTILE_TEXT, minimalLog, recordedLog, toolUsingSession } from './fixtures.ts';

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

  it('steps to an event and highlights its state and the transitions it took', async () => {
    const data = viewerData(parseSessionLog(recordedLog(toolUsingSession())));
    const url = writePage('view.html', renderViewerHtml(data));
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(url);

    // The step after tools_finished: runningTools → afterTools → collectingAttachments.
    const target = data.frames.findIndex((f) => f.event?.type === 'tools_finished');
    for (let i = 0; i < target; i++) await page.keyboard.press('ArrowRight');
    expect(await page.getAttribute('body', 'data-active-state')).toBe('collectingAttachments');
    expect(await page.getAttribute('g.node.active', 'data-state')).toBe('collectingAttachments');
    const taken = await page.$$eval('g.edge.taken', (els) => els.map((e) => e.getAttribute('data-transition')));
    const expected = data.frames[target]!.transitions.filter((id) => byId.get(id)!.target !== null);
    expect(taken.sort()).toEqual([...expected].sort());
    expect(expected).toContain('runningTools|tools_finished|0');
    expect(await page.textContent('#position')).toBe(`step ${target} / ${data.frames.length - 1}`);
    expect(await page.textContent('#pending')).toContain('collect_attachments');
    expect(await page.textContent('#messages')).toContain('a.ts\nb.ts');

    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'viewer-tools-finished.png') });

    // Prev, Next and the scrubber move through the same frames.
    await page.click('#prev');
    expect(await page.getAttribute('body', 'data-active-state')).toBe(data.frames[target - 1]!.state);
    await page.click('#next');
    await page.keyboard.press('ArrowLeft');
    expect(await page.getAttribute('body', 'data-active-state')).toBe(data.frames[target - 1]!.state);
    await page.$eval('#scrubber', (el, last) => {
      (el as HTMLInputElement).value = String(last);
      el.dispatchEvent(new Event('input'));
    }, data.frames.length - 1);
    expect(await page.getAttribute('body', 'data-active-state')).toBe('completed');
    expect(await page.textContent('#state-note')).toBe('terminal: completed');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'viewer-completed.png') });
    expect(errors).toEqual([]);
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
    for (let i = 0; i < data.frames.length; i++) await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(200);
    expect(dialogs).toEqual([]);
    expect(await page.$$eval('img', (els) => els.length)).toBe(0);
    expect(await page.$$eval('script', (els) => els.length)).toBe(2);
    expect(await page.$$eval('[onerror]', (els) => els.length)).toBe(0);
    // The markup is there, as text.
    expect(await page.textContent('#messages')).toContain(HOSTILE_TEXT.slice(0, 40));
    expect(await page.textContent('#start-history')).toContain('<img src=x onerror=alert(1)>');
    await page.close();
  });

  it('the Mermaid export parses and renders with mermaid', async () => {
    const page = await browser.context.newPage();
    await page.setContent('<!DOCTYPE html><html><body><div id="out"></div></body></html>');
    const require = createRequire(import.meta.url);
    await page.addScriptTag({ path: require.resolve('mermaid/dist/mermaid.min.js') });
    const result = await page.evaluate(async (text) => {
      const mermaid = (window as unknown as { mermaid: { initialize(o: object): void; parse(t: string): Promise<unknown>; render(id: string, t: string): Promise<{ svg: string }> } }).mermaid;
      mermaid.initialize({ startOnLoad: false });
      const parsed = await mermaid.parse(text);
      const { svg } = await mermaid.render('chart', text);
      let broken = 'accepted';
      try {
        await mermaid.parse('stateDiagram-v2\n  a --> : x ;; {');
      } catch {
        broken = 'rejected';
      }
      return { parsed: Boolean(parsed), svgLength: svg.length, hasStopHooks: svg.includes('stopHooks'), broken };
    }, exportMermaid());
    expect(result).toMatchObject({ parsed: true, hasStopHooks: true, broken: 'rejected' });
    expect(result.svgLength).toBeGreaterThan(10_000);
    await page.close();
  });

  it('the SCXML export is well-formed for DOMParser, with 10 <final> states', async () => {
    const page = await browser.context.newPage();
    const result = await page.evaluate((xml) => {
      const doc = new DOMParser().parseFromString(xml, 'application/xml');
      return {
        errors: doc.getElementsByTagName('parsererror').length,
        finals: doc.getElementsByTagNameNS('http://www.w3.org/2005/07/scxml', 'final').length,
      };
    }, exportScxml());
    expect(result).toEqual({ errors: 0, finals: 10 });
    await page.close();
  });
});
