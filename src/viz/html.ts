/**
 * The viewer page: ONE self-contained HTML file. The statechart is an inline SVG laid out in Node
 * (`layout.ts`); the session is embedded as data (its config, params and events, about the size of the log) in
 * a `<script type="application/json">`, and the page script (`viewer/app.ts`, bundled at build time into
 * `viewer/viewer.bundle.js` with the pure `step()`) folds it in the page, as replay does.
 *
 * Invariants (no HTML from a session is ever interpreted):
 * - the embedded JSON escapes `<`, `>`, `&`, U+2028 and U+2029, so no `</script>` or `<!--` can end the block;
 * - the page script puts session text on the page with `textContent` only;
 * - a Content-Security-Policy allows only this page's own script and style (by sha256) and no network, images
 *   or frames, so even an injected element could neither run nor load anything.
 * Pure apart from reading the asset files.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LoopConfig } from '../config/config.ts';
import type { LoopEvent } from '../data/events.ts';
import type { LoopParams } from '../data/state.ts';
import { buildChart, type Chart } from './graph.ts';
import { htmlEscape, layoutChart } from './layout.ts';
import { parseSessionLog, type RunVerdict, type SessionForView } from './session.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

export const VIEWER_BUNDLE = 'viewer.bundle.js';

/** The page script has not been bundled (a checkout where `npm run build` has not run). */
export class ViewerBundleMissingError extends TurnloopError {
  constructor(readonly path: string) {
    super('VIEWER_BUNDLE_MISSING', `the viewer's page script ${path} is missing: run npm run build (it bundles src/viz/viewer/app.ts)`);
    this.name = 'ViewerBundleMissingError';
  }
}

function readAsset(name: string): string {
  const path = fileURLToPath(new URL(`./viewer/${name}`, import.meta.url));
  if (!existsSync(path)) throw new ViewerBundleMissingError(path);
  return readFileSync(path, 'utf8');
}

/** A run as the page embeds it: what it needs to fold the run with `step()`, and its subagent runs. */
export interface EmbeddedRun {
  config: LoopConfig;
  params: LoopParams;
  events: LoopEvent[];
  /** Subagent runs, each linked to the parent's tool call that ran it (absent: none). */
  children?: EmbeddedChildRun[];
  /** How the engine's run compares with a recorded Claude Code run (transcripts only). */
  check?: RunVerdict;
  /**
   * `params.messages` is only the tail: the run's history starts with the first `count` messages of the run
   * `from` (a key, embedded earlier in the page). A transcript's runs each start from everything before them;
   * embedding that again for every run would make the page grow with the square of the session.
   */
  sharedHistory?: { from: string; count: number };
}

export interface EmbeddedChildRun extends EmbeddedRun {
  toolUseId: string;
  agent: string | null;
  kind?: 'subagent' | 'run';
  label?: string;
}

/** How many leading messages `messages` shares (the same objects) with `earlier`. */
function sharedPrefix(earlier: readonly unknown[], messages: readonly unknown[]): number {
  let n = 0;
  while (n < earlier.length && n < messages.length && earlier[n] === messages[n]) n++;
  return n;
}

function embeddedRun(session: SessionForView, key = '', previous: { key: string; messages: readonly unknown[] } | null = null): EmbeddedRun {
  const shared = previous ? sharedPrefix(previous.messages, session.params.messages) : 0;
  const run: EmbeddedRun =
    shared > 0
      ? { config: session.config, params: { ...session.params, messages: session.params.messages.slice(shared) }, events: session.events, sharedHistory: { from: previous!.key, count: shared } }
      : { config: session.config, params: session.params, events: session.events };
  if (session.check) run.check = session.check;
  if (session.children?.length) {
    // A later run of the same thread starts from the history of the run before it.
    let before = { key, messages: session.params.messages as readonly unknown[] };
    run.children = session.children.map((c) => {
      const childKey = key === '' ? c.toolUseId : `${key}/${c.toolUseId}`;
      const child: EmbeddedChildRun = { toolUseId: c.toolUseId, agent: c.agent, ...(c.kind ? { kind: c.kind } : {}), ...(c.label ? { label: c.label } : {}), ...embeddedRun(c.session, childKey, c.kind === 'run' ? before : null) };
      if (c.kind === 'run') before = { key: childKey, messages: c.session.params.messages };
      return child;
    });
  }
  return run;
}

export interface ViewerData {
  chart: Chart;
  /** The session to fold in the page; null for the chart alone. */
  session: EmbeddedRun | null;
  sessionId: string | null;
  /** The file the page was made from (title and header), when it came from one. */
  source?: ViewSource;
}

/** Where the session came from: a turnloop session log or a Claude Code transcript re-driven by the engine. */
export interface ViewSource {
  file: string;
  kind: 'session-log' | 'claude-transcript';
}

/** JSON that is safe inside a `<script>` element: nothing in it can close the element or open a comment. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** `viewerData()` was given something that is neither a log's text nor `parseSessionLog()`'s result. */
export class ViewerInputError extends TurnloopError {
  constructor(readonly got: string) {
    super('VIEWER_INPUT', `viewerData() takes a session log's text or parseSessionLog(text)'s result, got ${got}`);
    this.name = 'ViewerInputError';
  }
}

function describeInput(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value !== 'object' || value === null) return typeof value;
  const keys = Object.keys(value).slice(0, 5);
  return `an object with ${keys.length > 0 ? keys.join(', ') : 'no keys'}${'header' in value ? ' (a parsed log from turnloop/replay: pass its text instead)' : ''}`;
}

/**
 * The data a viewer page embeds: the chart alone, or the chart and a session with its subagent runs (folded in
 * the page, which derives everything else, the starting history and the limits included, from each run's own
 * params and config). The session is a log's text (parsed here) or `parseSessionLog()`'s result.
 *
 * @example
 * writeFileSync('view.html', renderViewerHtml(viewerData(readFileSync('run.jsonl', 'utf8'))));
 */
export function viewerData(session: SessionForView | string | null, chart: Chart = buildChart(), source?: ViewSource): ViewerData {
  const view = typeof session === 'string' ? parseSessionLog(session) : session;
  // Plain JavaScript can hand over anything: say what was expected rather than fail on a missing field.
  if (view !== null && (typeof view !== 'object' || typeof view.config !== 'object' || !Array.isArray(view.events))) {
    throw new ViewerInputError(describeInput(view));
  }
  return { chart, session: view ? embeddedRun(view) : null, sessionId: view?.config.sessionId ?? null, ...(source ? { source } : {}) };
}


const LEGEND = `
<details id="legend" open><summary>Legend</summary>
  <div><span class="sw sw-active"></span>active state</div>
  <div><span class="sw sw-parent"></span>its compound parent</div>
  <div><span class="sw sw-taken"></span>transition taken by this step</div>
  <div><span class="sw sw-visited"></span>state the step passed through</div>
  <div><span class="sw sw-pulse"></span>pulse: stayed in the state (self-transition, listed at right)</div>
  <div><span class="sw sw-continue"></span>Continue (back to iterationStart)</div>
  <div><span class="sw sw-final"></span>terminal (final state)</div>
  <div class="legend-note">timeline: → state change · ↺ stayed · ↻ Continue · ⚒ tool call · ■ terminal · · ignored · ▸ subagent run (click to open)</div>
</details>`;

const KEYS = `
<details id="keys"><summary>Keyboard</summary><ul class="plain mono">
  <li>← / → previous / next step · Shift+← / → previous / next state change</li>
  <li>Home / End first / last · PageUp / PageDown 100 steps</li>
  <li>c / C next / previous Continue · t / T next / previous tool call · m / M next / previous message</li>
  <li>conversation: click an entry to show its step; stepping marks the entry of the step shown</li>
  <li>/ search · f fit (legible) · o whole chart · . follow the active state</li>
  <li>chart (focused): + − zoom · 0 1:1 · arrows pan; wheel zooms, drag pans</li>
  <li>timeline (focused): ↑ ↓ PageUp PageDown Home End; on a subagent's group: → Enter open, ← close, Space toggle</li>
</ul></details>`;

function sessionHeader(): string {
  return `
<div class="controls">
  <button id="prev" type="button" title="previous step (←)">◀ Prev</button>
  <input id="scrubber" type="range" min="0" max="0" value="0" aria-label="step (whole session)">
  <button id="next" type="button" title="next step (→)">Next ▶</button><span id="position"></span>
</div>
<div class="controls">
  <label class="fine">fine <span id="fine-range" class="mono"></span> <input id="fine" type="range" min="0" max="0" value="0" aria-label="step (fine, 200 steps around the current one)"></label>
  <span class="jumps">
    <button id="prev-change" type="button" title="previous state change (Shift+←)">◀ state</button><button id="next-change" type="button" title="next state change (Shift+→)">state ▶</button>
    <button id="prev-continue" type="button" title="previous Continue (C)">◀ Continue</button><button id="next-continue" type="button" title="next Continue (c)">Continue ▶</button>
    <button id="prev-tool" type="button" title="previous tool call (T)">◀ tool call</button><button id="next-tool" type="button" title="next tool call (t)">tool call ▶</button>
  </span>
</div>
<div id="event-line"><span id="run-path"></span><span id="run-check"></span><span id="event-type"></span><span id="event-summary"></span></div>`;
}

function timelineColumn(): string {
  return `
<div id="left">
<section id="conversation-pane" aria-label="conversation">
  <div class="pane-head"><h2>Conversation</h2><label title="prompts, answers, errors and endings; no tool calls, results or thinking"><input id="messages-only" type="checkbox"> messages only</label></div>
  <div id="conversation" tabindex="0" aria-label="the conversation: select an entry to show its step"></div>
</section>
<nav id="events" aria-label="events">
  <div class="filters">
    <input id="search" type="search" placeholder="search events (/)" aria-label="search events">
    <select id="filter" aria-label="filter events">
      <option value="all">all steps</option><option value="messages">messages</option><option value="change">state changes</option><option value="stayed">self-transitions</option>
      <option value="continue">Continues</option><option value="tool">tool calls</option><option value="done">terminal</option><option value="ignored">ignored events</option>
    </select>
    <div id="match-count" class="muted"></div>
  </div>
  <div id="timeline" class="vlist" role="listbox" tabindex="0" aria-label="timeline of steps"></div>
</nav>
</div>`;
}

/** The session's header line: its first prompt and figures, filled in by the page once it has folded the runs. */
const SESSION_SUMMARY = `
<div id="session-summary"><span id="summary-prompt" class="prompt"></span><span id="summary-figures"></span></div>`;

function detailColumn(): string {
  return `
<aside id="side">
  <section><h2>Active state</h2><div id="state-name"></div><div id="state-note" class="mono"></div></section>
  <section><h2>Transitions taken by this step</h2><ul id="taken" class="plain"></ul></section>
  <section><h2>What this step changed <span id="change-count"></span></h2><ul id="changes" class="plain mono"></ul></section>
  <section><h2>Event payload</h2><pre id="payload" class="payload"></pre></section>
  <section><h2>Counters</h2><table class="counters"><tbody id="counters"></tbody></table>
    <div class="bar" title="tokens / effective window; marks: autocompact threshold, blocking limit"><div id="token-fill" class="fill"></div><div id="mark-autocompact" class="mark"></div><div id="mark-blocking" class="mark"></div></div>
  </section>
  <section><h2>Effects of this step</h2><ul id="effects" class="plain"></ul></section>
  <section><h2>Pending effects</h2><ul id="pending" class="plain"></ul></section>
  <section><h2>Messages emitted so far</h2><div id="messages" class="vlist"></div><pre id="message-detail" class="payload">(click a message for its full text)</pre></section>
  <section><h2>Starting history</h2><ul id="start-history" class="plain"></ul></section>
</aside>`;
}

/**
 * What a page built on the viewer adds (the live inspector): one more script (allowed by its hash), its JSON data,
 * extra style, and whether it may connect back to its own origin (`connect-src 'self'`; otherwise none).
 */
export interface PageExtension {
  script: string;
  dataId: string;
  data: unknown;
  css?: string;
  connectSelf?: boolean;
}

/** The page's title: the file's name first (a browser tab shows the start), else what the page draws. */
export function pageTitle(data: ViewerData): string {
  if (data.source) return `${data.source.file.split(/[\\/]/).pop()} · turnloop viewer`;
  return data.session ? `${data.sessionId ?? 'session'} · turnloop viewer` : 'turnloop: the loop statechart';
}

/** The page's heading: the file's name, else what the page draws. */
function heading(data: ViewerData): string {
  if (data.source) return data.source.file.split(/[\\/]/).pop()!;
  return data.session ? `turnloop · ${data.sessionId ?? 'session'}` : 'turnloop · loop statechart';
}

/**
 * The complete page.
 *
 * @example
 * writeFileSync('view.html', renderViewerHtml(viewerData(parseSessionLog(text))));
 */
export function renderViewerHtml(data: ViewerData, extension?: PageExtension): string {
  const css = readAsset('viewer.css') + (extension?.css ?? '');
  const script = readAsset(VIEWER_BUNDLE);
  const hasSession = data.session !== null;
  const scripts = extension ? [script, extension.script] : [script];
  const csp = [
    "default-src 'none'",
    `script-src ${scripts.map(sha256).join(' ')}`,
    `style-src ${sha256(css)}`,
    "img-src 'none'",
    `connect-src ${extension?.connectSelf ? "'self'" : "'none'"}`,
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
  const chartTools =
    '<span class="chart-tools"><button id="fit" type="button" title="fit the chart to the pane, never below a legible 60% (f)">Fit</button>' +
    '<button id="overview" type="button" title="the whole chart, however small (o)">Whole</button>' +
    '<button id="zoom-out" type="button" title="zoom out (−)" aria-label="zoom out">−</button><span id="zoom-level" class="mono"></span>' +
    '<button id="zoom-in" type="button" title="zoom in (+)" aria-label="zoom in">+</button><button id="actual-size" type="button" title="1:1 (0)">1:1</button>' +
    `<label title="keep the active state in view (.)"><input id="follow" type="checkbox"${hasSession ? ' checked' : ''}> follow active state</label></span>`;
  const header = hasSession
    ? sessionHeader()
    : '<span class="empty">No session loaded: run <code>turnloop viz session.jsonl --out view.html</code> for a timeline.</span>';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${htmlEscape(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${htmlEscape(pageTitle(data))}</title>
<style>${css}</style>
</head>
<body class="${hasSession ? 'with-session' : 'chart-only'}">
<header><div class="title-row"><h1 title="${htmlEscape(data.source ? `${data.source.kind === 'claude-transcript' ? 'Claude Code transcript, re-driven through the engine' : 'turnloop session log'}: ${data.source.file}` : 'the loop statechart')}">${htmlEscape(heading(data))}</h1>${chartTools}</div>${hasSession ? SESSION_SUMMARY : ''}${header}</header>
<main class="${hasSession ? 'with-session' : 'chart-only'}">
${hasSession ? timelineColumn() : ''}
<div id="chart-wrap"><div id="chart-pane" tabindex="0" aria-label="statechart: wheel or + − to zoom, drag or arrows to pan"><div id="chart-stage">${layoutChart(data.chart).svg}</div></div>${LEGEND}${KEYS}</div>${hasSession ? detailColumn() : ''}
</main>
<div id="announce" class="sr-only" aria-live="polite" aria-atomic="true"></div>
<script type="application/json" id="turnloop-data">${scriptSafeJson(data)}</script>
<script>${script}</script>
${extension ? `<script type="application/json" id="${extension.dataId}">${scriptSafeJson(extension.data)}</script>\n<script>${extension.script}</script>\n` : ''}</body>
</html>
`;
}
