/**
 * The viewer page: ONE self-contained HTML file. The statechart is an inline SVG laid out in Node
 * (`layout.ts`); the timeline frames are precomputed in Node (`frames.ts`) and embedded as JSON in a
 * `<script type="application/json">`; the page script and style are inlined from `viewer/`.
 *
 * Invariants (no HTML from a session is ever interpreted):
 * - the embedded JSON escapes `<`, `>`, `&`, U+2028 and U+2029, so no `</script>` or `<!--` can end the block;
 * - the page script puts session text on the page with `textContent` only;
 * - a Content-Security-Policy allows only this page's own script and style (by sha256) and no network, images
 *   or frames, so even an injected element could neither run nor load anything.
 * Pure apart from reading the two asset files once.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { LoopConfig } from '../config/config.ts';
import type { Message } from '../messages/types.ts';
import type { LoopParams } from '../reducer/state.ts';
import { buildFrames, viewMessage, type Frame, type ViewMessage } from './frames.ts';
import { buildChart, type Chart } from './graph.ts';
import { htmlEscape, layoutChart } from './layout.ts';
import type { SessionForView } from './session.ts';

const readAsset = (name: string) => readFileSync(new URL(`./viewer/${name}`, import.meta.url), 'utf8');

export interface ViewerData {
  chart: Chart;
  frames: Frame[];
  /** The history the run started from (not emitted by the loop). */
  initialMessages: ViewMessage[];
  limits: { maxOutputTokensRecovery: number; autocompactMaxFailures: number };
  sessionId: string | null;
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

/** The data a viewer page embeds: the chart alone, or the chart and a session's frames. */
export function viewerData(session: SessionForView | null, chart: Chart = buildChart(), defaults?: LoopConfig): ViewerData {
  const config = session?.config ?? defaults;
  return {
    chart,
    frames: session ? buildFrames(session, chart) : [],
    initialMessages: session ? (session.params as LoopParams).messages.map((m: Message) => viewMessage(m)) : [],
    limits: {
      maxOutputTokensRecovery: config?.limits.maxOutputTokensRecovery ?? 3,
      autocompactMaxFailures: config?.limits.autocompactMaxFailures ?? 3,
    },
    sessionId: session?.config.sessionId ?? null,
  };
}

function sessionPanel(): string {
  return `
<aside id="side">
  <section><h2>Active state</h2><div id="state-name"></div><div id="state-note" class="mono"></div></section>
  <section><h2>Transitions taken by this event</h2><ul id="taken" class="plain"></ul></section>
  <section><h2>Counters</h2><table class="counters"><tbody id="counters"></tbody></table>
    <div class="bar" title="tokens / effective window; marks: autocompact threshold, blocking limit"><div id="token-fill" class="fill"></div><div id="mark-autocompact" class="mark"></div><div id="mark-blocking" class="mark"></div></div>
  </section>
  <section><h2>Effects of this step</h2><ul id="effects" class="plain"></ul></section>
  <section><h2>Pending effects</h2><ul id="pending" class="plain"></ul></section>
  <section><h2>Messages emitted so far</h2><div id="messages-box"><ul id="messages" class="plain"></ul></div></section>
  <section><h2>Starting history</h2><ul id="start-history" class="plain"></ul></section>
  <section><h2>Events</h2><ul id="timeline" class="plain"></ul></section>
</aside>`;
}

/**
 * The complete page.
 *
 * @example
 * writeFileSync('view.html', renderViewerHtml(viewerData(parseSessionLog(text))));
 */
export function renderViewerHtml(data: ViewerData): string {
  const css = readAsset('viewer.css');
  const js = readAsset('viewer.js');
  const historyJs = `
(function () {
  var data = JSON.parse(document.getElementById('turnloop-data').textContent);
  var list = document.getElementById('start-history');
  if (!list) return;
  data.initialMessages.forEach(function (m) {
    var li = document.createElement('li');
    var head = document.createElement('div'); head.className = 'msg-head'; head.textContent = m.type + (m.tag ? ' · ' + m.tag : '');
    var body = document.createElement('div'); body.className = 'msg-text'; body.textContent = m.text;
    li.appendChild(head); li.appendChild(body); list.appendChild(li);
  });
})();`;
  const script = `${js}\n${historyJs}`;
  const hasSession = data.frames.length > 0;
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(css)}`,
    "img-src 'none'",
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
  const controls = hasSession
    ? `<div class="controls"><button id="prev" type="button" title="previous event (←)">◀ Prev</button>` +
      `<input id="scrubber" type="range" min="0" max="0" value="0" aria-label="event">` +
      `<button id="next" type="button" title="next event (→)">Next ▶</button><span id="position"></span></div>` +
      `<div id="event-line"><span id="event-type"></span><span id="event-summary"></span></div>`
    : '<span class="empty">No session loaded: run <code>turnloop viz session.jsonl --out view.html</code> for a timeline.</span>';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${htmlEscape(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>turnloop: the loop statechart</title>
<style>${css}</style>
</head>
<body>
<header><h1>turnloop · loop statechart</h1><button id="fit" type="button" title="fit the chart to the pane">Fit / 1:1</button>${controls}</header>
<main class="${hasSession ? '' : 'chart-only'}">
<div id="chart-pane">${layoutChart(data.chart).svg}</div>${hasSession ? sessionPanel() : ''}
</main>
<script type="application/json" id="turnloop-data">${scriptSafeJson(data)}</script>
<script>${script}</script>
</body>
</html>
`;
}
