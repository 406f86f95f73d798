/**
 * The live inspector page is usable on a laptop and a desktop screen: in headless Chromium at 1280×720 and
 * 1920×1080, with a run held before its third model call, the live bar, the header and the main area share the
 * viewport (the main area gets most of it), and the chart, the timeline and the side panels are on screen with
 * their content. (Issue 31: the live bar once shifted the viewer's grid rows and left the main area 16 px.)
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, SKIP_REASON, type Browser } from './browser.ts';
import { heldRun, type HeldRun } from '../unit/inspector/held-run.ts';

const SCREENSHOT_DIR = join(tmpdir(), 'turnloop-inspector-screenshots');

interface Rect {
  top: number;
  bottom: number;
  left: number;
  right: number;
  width: number;
  height: number;
}

describe.skipIf(!hasChromium)(hasChromium ? 'the live inspector page in headless Chromium' : `the live inspector page (${SKIP_REASON})`, () => {
  let browser: Browser;
  let held: HeldRun;
  beforeAll(async () => {
    held = await heldRun();
    browser = await launchChromium();
    await browser.context.route(/^http:\/\/127\.0\.0\.1:\d+\//, (route) => route.continue());
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await held?.finish();
  });

  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
  ] as const) {
    it(`at ${width}×${height}: the main area takes most of the height; chart, timeline and panels are visible`, async () => {
      const page = await browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        await page.setViewportSize({ width, height });
        await page.goto(held.inspector.url);
        await page.waitForFunction(() => (document.querySelector('#live-status')?.textContent ?? '').startsWith('paused'));
        const rect = (selector: string) =>
          page.evaluate((s) => {
            const r = document.querySelector(s)!.getBoundingClientRect();
            return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height };
          }, selector) as Promise<Rect>;
        const [bar, header, main, chart, left, timeline, conversation, side] = await Promise.all(['#live-bar', 'body > header', 'main', '#chart-pane', '#left', '#timeline', '#conversation', 'aside'].map(rect));

        // Stacked in order, nothing overlapping, and together exactly the viewport.
        expect(bar.top).toBe(0);
        expect(header.top).toBeCloseTo(bar.bottom, 0);
        expect(main.top).toBeCloseTo(header.bottom, 0);
        expect(main.bottom).toBeCloseTo(height, 0);
        expect(bar.height + header.height).toBeLessThan(230);
        expect(main.height).toBeGreaterThan(height * 0.65);
        expect(main.width).toBe(width);

        // Each region inside the main area, side by side, with room for its content.
        for (const region of [chart, left, side]) {
          expect(region.top).toBeGreaterThanOrEqual(main.top - 0.5);
          expect(region.bottom).toBeLessThanOrEqual(main.bottom + 0.5);
          expect(region.height).toBeGreaterThan(height * 0.5);
        }
        // The left column: the conversation above the timeline of steps, both with room for several rows.
        expect(conversation.bottom).toBeLessThanOrEqual(timeline.top);
        expect(conversation.height).toBeGreaterThan(height * 0.25);
        expect(timeline.height).toBeGreaterThan(height * 0.15);
        expect(timeline.right).toBeLessThanOrEqual(chart.left + 1);
        expect(chart.right).toBeLessThanOrEqual(side.left + 1);
        expect(chart.width).toBeGreaterThan(width * 0.4);
        expect(timeline.width).toBeGreaterThan(200);
        expect(side.width).toBeGreaterThan(300);

        // Their content is there: the held step's rows, the active state in the chart and named at the side.
        const rows = await page.locator('#timeline .vl-row').count();
        expect(rows).toBeGreaterThan(10);
        const active = await page.getAttribute('body', 'data-active-state');
        expect(active).toBeTruthy();
        expect(await page.textContent('#state-name')).toContain('sampling');
        const activeNode = await page.evaluate(() => {
          const node = document.querySelector('#chart-pane .node.active')!.getBoundingClientRect();
          const pane = document.getElementById('chart-pane')!.getBoundingClientRect();
          return node.left >= pane.left && node.right <= pane.right && node.top >= pane.top && node.bottom <= pane.bottom;
        });
        expect(activeNode, 'the active state is inside the chart pane (followed)').toBe(true);

        // Nothing in the header is cut off or wrapped under another row: toolbar, session line, event line.
        const clipped = await page.evaluate(() => {
          const head = document.querySelector('body > header')!.getBoundingClientRect();
          return [...document.querySelectorAll('body > header button, body > header input, body > header select, #session-summary, #event-line')]
            .map((el) => ({ id: el.id || el.textContent, r: el.getBoundingClientRect() }))
            .filter(({ r }) => r.width > 0 && (r.bottom > head.bottom + 0.5 || r.right > head.right + 0.5))
            .map(({ id }) => id);
        });
        expect(clipped).toEqual([]);

        mkdirSync(SCREENSHOT_DIR, { recursive: true });
        await page.screenshot({ path: join(SCREENSHOT_DIR, `inspector-${width}x${height}.png`) });
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }
});
