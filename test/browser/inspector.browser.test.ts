/**
 * The live inspector in headless Chromium: the page follows a run as it goes, holds it at a breakpoint set from
 * the page (no request reaches the fake API meanwhile), steps it, and aborts it through the normal abort path.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairingViolations, toolUseIds } from '../property/checks.ts';
import type { FakeApi } from '../../src/fake-api/index.ts';
import { startInspector } from '../../src/inspector/inspector.ts';
import { parseScenario } from '../../src/scenario/load-scenario.ts';
import { simulateScenario } from '../../src/scenario/simulate.ts';
import { hasChromium, launchChromium, SKIP_REASON, type Browser } from './browser.ts';
import { tmpdir } from 'node:os';

/** `rounds` tool rounds, each tool taking `delayMs` of real time, then an answer. */
function slowToolRounds(rounds: number, delayMs: number) {
  return parseScenario(
    {
      name: 'inspected in the browser',
      params: { prompt: 'look around' },
      tools: [{ name: 'Look', readOnly: true, concurrencySafe: true, results: Array.from({ length: rounds }, (_, i) => ({ content: `view ${i + 1}`, delayMs })) }],
      model: [
        ...Array.from({ length: rounds }, () => ({ content: [{ type: 'tool_use', name: 'Look', input: {} }] })),
        { content: [{ type: 'text', text: 'seen it all' }] },
      ],
    },
    'inspected.json',
  );
}

/** Screenshots land here, for a human to look at (docs/inspector.png is one of them). */
const SCREENSHOT_DIR = join(tmpdir(), 'turnloop-inspector-screenshots');

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!hasChromium)(hasChromium ? 'the live inspector in headless Chromium' : `the live inspector (${SKIP_REASON})`, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    // The shared launcher refuses all http(s); the inspector on loopback is the one server these pages may reach.
    await browser.context.route(/^http:\/\/127\.0\.0\.1:\d+\//, (route) => route.continue());
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows steps as they happen, holds before the second model call until the page steps, then finishes', async () => {
    // The run first holds before its first tools run (one model request made), so the page can set its breakpoint.
    const inspector = await startInspector({ keep: true, breakpoints: [{ kind: 'tools' }] });
    let api: FakeApi | null = null;
    let ended = false;
    const run = simulateScenario(slowToolRounds(3, 300), { observers: [inspector.attach('main')], onFakeApi: (a) => (api = a) }).finally(() => (ended = true));
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const status = async () => (await page.textContent('#live-status')) ?? '';
    const steps = () => page.evaluate(() => window.turnloopViewer?.length ?? 0);
    try {
      await until(() => inspector.session()?.control.status().mode === 'paused', 'the hold before the first tools');
      await page.goto(inspector.url);
      await until(async () => (await status()).startsWith('paused'), 'the page to show the hold');
      expect(api!.requests.length).toBe(1);
      const before = await steps();

      // From the page: break before a model call instead, and continue. The tools run, steps stream in, and the
      // run holds again before the second model call without sending it.
      await page.check('#bp-model_call');
      await page.uncheck('#bp-tools');
      await page.click('#live-resume');
      await until(async () => (await steps()) > before, 'steps to stream in while the run goes on');
      await until(async () => (await status()).startsWith('paused'), 'the hold before the second model call');
      expect(ended).toBe(false);
      expect(await status()).toContain('before each model call');
      await new Promise((r) => setTimeout(r, 300));
      expect(api!.requests.length).toBe(1);
      expect(await page.getAttribute('body', 'data-active-state')).toBeTruthy();
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'inspector-paused.png') });

      const heldAt = await steps();
      await page.click('#live-step');
      await until(() => api!.requests.length === 2, 'the second model request after Step');
      await page.uncheck('#bp-model_call');
      await page.click('#live-resume');
      const result = await run;
      expect(result.terminal.reason).toBe('completed');
      await until(async () => (await status()).startsWith('ended'), 'the page to show the end');
      expect(await steps()).toBeGreaterThan(heldAt);
      // Every recorded step is on the page: the log's event lines are the page's steps after the initial one.
      expect(await steps()).toBe(inspector.session()!.lines.length);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await run.catch(() => undefined);
      await inspector.close();
    }
  });

  it('aborts from the page: the run ends aborted with every tool_use answered', async () => {
    const inspector = await startInspector();
    const run = simulateScenario(slowToolRounds(3, 2_000), { observers: [inspector.attach('main')] });
    const page = await browser.context.newPage();
    try {
      await until(() => inspector.session() !== undefined && inspector.session()!.lines.length > 3, 'the run to start');
      await page.goto(inspector.url);
      await until(async () => (await page.textContent('#live-status'))!.startsWith('running'), 'the page to connect');
      await page.click('#live-abort');
      const result = await run;
      expect(result.terminal.reason).toMatch(/^aborted_/);
      expect(toolUseIds(result.emitted).length).toBeGreaterThan(0);
      expect(pairingViolations(result.emitted)).toEqual([]);
    } finally {
      await page.close();
      await inspector.close();
    }
  });
});
