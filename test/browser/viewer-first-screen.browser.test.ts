/**
 * The viewer's first screen as a person sees it at 1280×800 in headless Chromium: the file in the title and the
 * heading, the first prompt, the ending and the figures, and the conversation, each visible (on screen, sized, not
 * covered); stepping marks the conversation's entry, an entry shows its step in the chart and the state diff, and
 * the messages-only filters keep what they say. Pages from a real Claude Code transcript (re-driven) and from a
 * turnloop session log.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeSessionForView } from '../../src/viz/claude-session.ts';
import { renderViewerHtml, viewerData } from '../../src/viz/html.ts';
import { parseSessionLog } from '../../src/viz/session.ts';
import { buildChart } from '../../src/viz/graph.ts';
import { MESSAGE, SessionModel } from '../../src/viz/viewer/session-model.ts';
import { hasChromium, launchChromium, SKIP_REASON, type Browser } from './browser.ts';
import { recordedLog, toolUsingSession } from '../unit/viz/fixtures.ts';

const SCREENSHOT_DIR = join(tmpdir(), 'turnloop-viewer-screenshots');
const TRANSCRIPT = resolve(import.meta.dirname, '../fixtures/claude-code-transcripts/subagent.jsonl');
const WIDTH = 1280;
const HEIGHT = 800;

function writePage(name: string, html: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'turnloop-first-screen-'));
  writeFileSync(join(dir, name), html);
  return pathToFileURL(join(dir, name)).href;
}

/** Where an element is and whether a person sees it: on screen, sized, and what is drawn at its centre is it. */
async function seen(page: Page, selector: string): Promise<{ width: number; height: number; top: number; bottom: number; onScreen: boolean; uncovered: boolean; text: string }> {
  return page.evaluate(
    ([sel, w, h]) => {
      const el = document.querySelector(sel as string) as HTMLElement | null;
      if (!el) return { width: 0, height: 0, top: 0, bottom: 0, onScreen: false, uncovered: false, text: '' };
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      const at = document.elementFromPoint(r.left + Math.min(r.width / 2, 40), r.top + Math.min(r.height / 2, 8));
      return {
        width: r.width,
        height: r.height,
        top: r.top,
        bottom: r.bottom,
        onScreen: r.top >= 0 && r.left >= 0 && r.top < (h as number) && r.left < (w as number) && style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) > 0,
        uncovered: at !== null && (el === at || el.contains(at)),
        text: el.textContent ?? '',
      };
    },
    [selector, WIDTH, HEIGHT] as const,
  );
}

describe.skipIf(!hasChromium)(hasChromium ? 'the viewer first screen at 1280×800' : `the viewer first screen (${SKIP_REASON})`, () => {
  let browser: Browser;
  let transcriptUrl: string;
  let logUrl: string;
  let messageSteps: number;
  let rootSteps: number;
  beforeAll(async () => {
    const view = claudeSessionForView(TRANSCRIPT);
    transcriptUrl = writePage('subagent.html', renderViewerHtml(viewerData(view.session, undefined, { file: 'test/fixtures/claude-code-transcripts/subagent.jsonl', kind: 'claude-transcript' })));
    const chart = buildChart();
    const root = new SessionModel(chart, view.session!);
    rootSteps = root.length;
    // The timeline lists the main thread's runs (the second one opened): the root and run 2.
    const runs = [root, ...view.session!.children!.filter((c) => c.kind === 'run').map((c) => new SessionModel(chart, c.session))];
    messageSteps = runs.reduce((n, m) => n + m.entries.filter((e) => e.flags & MESSAGE).length, 0);
    logUrl = writePage('run.html', renderViewerHtml(viewerData(parseSessionLog(recordedLog(toolUsingSession())), undefined, { file: 'run.jsonl', kind: 'session-log' })));
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  async function open(url: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.setViewportSize({ width: WIDTH, height: HEIGHT });
    await page.goto(url);
    await page.waitForFunction(() => window.turnloopViewer !== undefined);
    return { page, errors };
  }

  it('a Claude Code transcript: the file, the first prompt, the ending, the figures and the conversation are on the first screen', async () => {
    const { page, errors } = await open(transcriptUrl);
    expect(await page.title()).toBe('subagent.jsonl · turnloop viewer');
    const heading = await seen(page, 'header h1');
    expect(heading.text).toBe('subagent.jsonl');
    expect(heading.onScreen && heading.uncovered).toBe(true);

    // The prompt as typed (a slash command, not its markup), and the figures of the whole session.
    const prompt = await seen(page, '#summary-prompt');
    expect(prompt.text).toMatch(/^“\/handgemacht:create-beads websearch to learn how to fastest setup credo/);
    expect(prompt).toMatchObject({ onScreen: true, uncovered: true });
    expect(prompt.width).toBeGreaterThan(150);
    const ending = await seen(page, '.fig-ending');
    expect(ending.text).toBe('endingcompleted');
    expect(ending).toMatchObject({ onScreen: true, uncovered: true });
    const figures = await page.textContent('#summary-figures');
    expect(figures).toContain('model calls13');
    expect(figures).toMatch(/tokensin [\d,]+ · out [\d,]+/);
    expect(figures).toMatch(/cost\$\d+\.\d+ at list price/);
    expect(figures).toContain('runs2');

    // The conversation: a tall column on screen with several entries in view, the prompt first.
    const column = await seen(page, '#conversation');
    expect(column).toMatchObject({ onScreen: true });
    expect(column.height).toBeGreaterThan(280);
    expect(column.width).toBeGreaterThan(320);
    expect(column.bottom).toBeLessThanOrEqual(HEIGHT);
    const inView = await page.evaluate(() => {
      const box = document.getElementById('conversation')!.getBoundingClientRect();
      return [...document.querySelectorAll('#conversation .conv')].filter((el) => {
        const r = el.getBoundingClientRect();
        return r.height > 10 && r.top < box.bottom && r.bottom > box.top;
      }).length;
    });
    expect(inView).toBeGreaterThanOrEqual(3);
    const first = await seen(page, '#conversation .conv');
    expect(first.text).toContain('you · step 0');
    expect(first.text).toContain('/handgemacht:create-beads');
    expect(first).toMatchObject({ onScreen: true, uncovered: true });
    // Every run of the session is in it, the second after the first, and each ends with its ending.
    const kinds = await page.evaluate(() => window.turnloopViewer!.conversation.map((e) => e.kind));
    expect(kinds.filter((k) => k === 'run')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'end')).toHaveLength(2);
    expect(kinds).toContain('tool');
    expect(kinds).toContain('result');

    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'first-screen-transcript-1280x800.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('stepping marks the entry of the step; an entry shows its step in the chart and the state diff', async () => {
    const { page, errors } = await open(transcriptUrl);
    const marked = () => page.evaluate(() => document.querySelector('#conversation .conv-current .conv-who')?.textContent ?? null);
    expect(await marked()).toMatch(/· step 0$/);
    // Step forward to the first step that emitted a message: its entry is marked.
    for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
    const current = await page.evaluate(() => window.turnloopViewer!.current);
    expect(current).toBe(12);
    const who = (await marked())!;
    const step = Number(/step (\d+)$/.exec(who)![1]);
    expect(step).toBeLessThanOrEqual(12);
    expect(step).toBeGreaterThan(0);

    // Clicking the first tool call's entry selects its step: the chart, the position and the diff follow.
    const tool = page.locator('#conversation .conv-tool').first();
    const toolStep = Number(/step (\d+)/.exec((await tool.locator('.conv-who').textContent())!)![1]);
    await tool.click();
    expect(await page.evaluate(() => window.turnloopViewer!.current)).toBe(toolStep);
    expect(await page.textContent('#position')).toBe(`step ${toolStep} / ${rootSteps - 1}`);
    expect(await page.textContent('#event-type')).toBe('model_message');
    expect(await page.getAttribute('body', 'data-active-state')).toBe('sampling');
    expect(await page.locator('#changes li').count()).toBeGreaterThan(0);
    expect(await page.getAttribute('#conversation .conv-current', 'class')).toContain('conv-tool');

    // Scrolled to its end, the column draws the entries there (it holds only a window of them); the second run's
    // entries belong to that run: clicking its heading shows run 2's first step.
    await page.evaluate(() => {
      const box = document.getElementById('conversation')!;
      box.scrollTop = box.scrollHeight;
    });
    await page.locator('#conversation .conv-end').last().waitFor();
    await page.locator('#conversation .conv-run').click();
    expect(await page.evaluate(() => window.turnloopViewer!.run)).toEqual(['run-2']);
    expect(await page.textContent('#run-path')).toBe('main › run 2');
    expect(await page.textContent('#run-check')).toBe('engine = recording');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the messages-only filters: the conversation keeps prompts and answers, the timeline the steps that emitted one', async () => {
    const { page, errors } = await open(transcriptUrl);
    const visible = (kind: string) => page.locator(`#conversation .conv-${kind}:visible`).count();
    expect(await visible('tool')).toBeGreaterThan(0);
    await page.check('#messages-only');
    expect(await visible('tool')).toBe(0);
    expect(await visible('result')).toBe(0);
    expect(await visible('prompt')).toBeGreaterThan(0);
    expect(await visible('answer')).toBeGreaterThan(0);
    await page.selectOption('#filter', 'messages');
    expect(await page.textContent('#match-count')).toMatch(new RegExp(`^${messageSteps} of \\d+ steps`));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a turnloop session log: its file, prompt, ending and conversation on the first screen too', async () => {
    const { page, errors } = await open(logUrl);
    expect(await page.title()).toBe('run.jsonl · turnloop viewer');
    expect((await seen(page, '#summary-prompt')).text).toBe('“List the files, please.”');
    expect((await seen(page, '.fig-ending')).text).toBe('endingcompleted');
    const texts = await page.$$eval('#conversation .conv', (els) => els.map((e) => e.textContent));
    expect(texts[0]).toBe('you · step 0List the files, please.');
    expect(texts.some((t) => t!.includes('Glob({"pattern":"*.ts"})'))).toBe(true);
    expect(texts.some((t) => t!.startsWith('tool result') && t!.includes('a.ts'))).toBe(true);
    expect(texts.at(-1)).toMatch(/^ending · step \d+completed$/);
    for (const selector of ['#summary-prompt', '.fig-ending', '#conversation .conv']) expect(await seen(page, selector), selector).toMatchObject({ onScreen: true, uncovered: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'first-screen-log-1280x800.png') });
    expect(errors).toEqual([]);
    await page.close();
  });
});
