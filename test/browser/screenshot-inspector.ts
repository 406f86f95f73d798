/**
 * Takes `docs/inspector.png` from the real live inspector page: a scripted run held before its third model call
 * (test/unit/inspector/held-run.ts), the page opened in headless Chromium (Debian's /usr/bin/chromium through
 * playwright-core, as the browser tests), one screenshot.
 *
 *   npm run docs:inspector -- [--out docs/inspector.png] [--size 1280x720]
 */
import { parseArgs } from 'node:util';
import { heldRun } from '../unit/inspector/held-run.ts';
import { launchChromium } from './browser.ts';

const { values } = parseArgs({ options: { out: { type: 'string', default: 'docs/inspector.png' }, size: { type: 'string', default: '1280x720' } } });
const [width, height] = values.size.split('x').map(Number);
if (!width || !height) throw new Error(`--size expects WIDTHxHEIGHT, got '${values.size}'`);

const held = await heldRun();
const browser = await launchChromium();
try {
  await browser.context.route(/^http:\/\/127\.0\.0\.1:\d+\//, (route) => route.continue());
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height });
  await page.goto(held.inspector.url);
  await page.waitForFunction(() => (document.querySelector('#live-status')?.textContent ?? '').startsWith('paused'));
  await page.waitForTimeout(500); // the pulse animation of the active state ends
  await page.screenshot({ path: values.out });
  process.stdout.write(`wrote ${values.out} (${width}×${height})\n`);
} finally {
  await browser.close();
  await held.finish();
}
