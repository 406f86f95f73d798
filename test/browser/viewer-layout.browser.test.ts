/**
 * The offline viewer (`turnloop viz`) is readable on a laptop and a desktop screen, in headless Chromium at
 * 1280×720 and 1920×1080: the toolbar stays on its rows inside the header, Fit keeps the chart legible (never
 * below 60%: around the active state when the whole chart would be smaller), the legend folds where it would cover
 * the chart and opens on a click, and the active state is highlighted and kept in view while stepping.
 * Screenshots of both sizes are written for a human to look at.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderViewerHtml, viewerData } from '../../src/viz/html.ts';
import { parseSessionLog } from '../../src/viz/session.ts';
import { MIN_FIT_SCALE } from '../../src/viz/viewer/chart-view.ts';
import { hasChromium, launchChromium, SKIP_REASON, type Browser } from './browser.ts';
import { longSession, minimalLog } from '../unit/viz/fixtures.ts';

const SCREENSHOT_DIR = join(tmpdir(), 'turnloop-viewer-screenshots');

describe.skipIf(!hasChromium)(hasChromium ? 'the offline viewer at laptop and desktop sizes' : `the offline viewer at two sizes (${SKIP_REASON})`, () => {
  let browser: Browser;
  let url: string;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-viewer-layout-'));
    writeFileSync(join(dir, 'view.html'), renderViewerHtml(viewerData(parseSessionLog(minimalLog(longSession(12))))));
    url = pathToFileURL(join(dir, 'view.html')).href;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
  ] as const) {
    it(`at ${width}×${height}: one-row toolbars, a legible Fit, a foldable legend, the active state followed`, async () => {
      const page = await browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        await page.setViewportSize({ width, height });
        await page.goto(`${url}#step=5`);
        await page.waitForFunction(() => window.turnloopViewer !== undefined && window.turnloopViewer.current === 5);

        // The header's controls: inside the header, and each group on one row (no button wrapped under another).
        const toolbar = await page.evaluate(() => {
          const head = document.querySelector('body > header')!.getBoundingClientRect();
          const tops = (selector: string) => [...document.querySelectorAll(selector)].map((el) => Math.round(el.getBoundingClientRect().top));
          const outside = [...document.querySelectorAll('body > header button, body > header input, body > header select')]
            .filter((el) => {
              const r = el.getBoundingClientRect();
              return r.width > 0 && (r.bottom > head.bottom + 0.5 || r.right > head.right + 0.5 || r.left < head.left - 0.5);
            })
            .map((el) => el.id || el.textContent);
          return { outside, chartTools: new Set(tops('.chart-tools button')).size, jumps: new Set(tops('.jumps button')).size };
        });
        expect(toolbar.outside).toEqual([]);
        expect(toolbar.chartTools).toBe(1);
        expect(toolbar.jumps).toBe(1);
        const main = await page.evaluate(() => document.querySelector('main')!.getBoundingClientRect().height);
        expect(main).toBeGreaterThan(height * 0.7);

        // Fit: never below the legible scale; the active state stays on screen.
        await page.click('#fit');
        const activeInPane = () =>
          page.evaluate(() => {
            const node = document.querySelector('#chart-pane .node.active')!.getBoundingClientRect();
            const pane = document.getElementById('chart-pane')!.getBoundingClientRect();
            return node.left >= pane.left && node.right <= pane.right && node.top >= pane.top && node.bottom <= pane.bottom;
          });
        const fitted = await page.evaluate(() => window.turnloopViewer!.chart.viewport().scale);
        expect(fitted).toBeGreaterThanOrEqual(MIN_FIT_SCALE - 1e-9);
        expect(await activeInPane()).toBe(true);
        expect(await page.textContent('#zoom-level')).toBe(`${Math.round(fitted * 100)}%`);

        // The legend: folded on the laptop screen (it covered a quarter of the chart), open on the desktop; a click
        // on its summary toggles it either way.
        const legendOpen = () => page.evaluate(() => (document.getElementById('legend') as HTMLDetailsElement).open);
        const openAtStart = await legendOpen();
        expect(openAtStart).toBe(width >= 1920);
        await page.click('#legend summary');
        expect(await legendOpen()).toBe(!openAtStart);
        await page.click('#legend summary');

        // Stepping with follow on: the active state is highlighted and in view after every step.
        await page.check('#follow');
        for (let i = 0; i < 6; i += 1) {
          await page.keyboard.press('ArrowRight');
          expect(await page.locator('#chart-pane .node.active').count()).toBe(1);
          expect(await activeInPane(), `after step ${6 + i}`).toBe(true);
        }

        mkdirSync(SCREENSHOT_DIR, { recursive: true });
        await page.screenshot({ path: join(SCREENSHOT_DIR, `viewer-${width}x${height}.png`) });
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }
});
