/**
 * Lays the chart out with dagre (MIT, run in Node at build time) and draws it as one inline SVG string, so the
 * viewer page needs no layout code and no network. Pure: same chart, same SVG.
 *
 * Hooks for the page: every state is a `<g data-state="<chart id>">` (clusters for compound states), every drawn
 * transition a `<g data-transition="<chart transition id>">`. Targetless transitions are not drawn (the page
 * lists them); transitions on the machine root start at an `(any state)` node; an edge into a compound state
 * lands on its initial child. Text is escaped; it only ever comes from the machine definition.
 */
import dagre from '@dagrejs/dagre';
import { ALWAYS, buildChart, describeRef, isElseBranch, type Chart, type ChartTransition } from './graph.ts';

export const ANY_STATE_NODE = '(any state)';
const START_NODE = '(start)';
const CHAR_WIDTH = 7;
const LINE_HEIGHT = 13;

export interface ChartSvg {
  svg: string;
  width: number;
  height: number;
}

export function htmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The label lines of a drawn transition: event, guard (or `[else]`), Continue reason. */
export function edgeLabelLines(chart: Chart, t: ChartTransition): string[] {
  const lines: string[] = [];
  if (t.event !== ALWAYS) lines.push(t.event);
  if (t.guard) lines.push(`[${describeRef(t.guard)}]`);
  else if (isElseBranch(chart, t)) lines.push('[else]');
  if (t.continue) lines.push(`↻ ${t.continue}`);
  return lines;
}

function landing(chart: Chart, id: string): string {
  const state = chart.states.find((s) => s.id === id);
  return state?.initial ? landing(chart, state.initial) : id;
}

function textBlock(lines: string[], x: number, y: number, cls: string): string {
  const top = y - ((lines.length - 1) * LINE_HEIGHT) / 2;
  const spans = lines.map((line, i) => `<tspan x="${r(x)}" y="${r(top + i * LINE_HEIGHT)}">${htmlEscape(line)}</tspan>`);
  return `<text class="${cls}" text-anchor="middle" dominant-baseline="central">${spans.join('')}</text>`;
}

const r = (n: number) => Math.round(n * 10) / 10;

/** A smooth path through dagre's control points. */
function pathThrough(points: Array<{ x: number; y: number }>): string {
  if (points.length === 0) return '';
  let d = `M${r(points[0]!.x)},${r(points[0]!.y)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const p = points[i]!;
    const next = points[i + 1]!;
    d += ` Q${r(p.x)},${r(p.y)} ${r((p.x + next.x) / 2)},${r((p.y + next.y) / 2)}`;
  }
  const last = points[points.length - 1]!;
  return `${d} L${r(last.x)},${r(last.y)}`;
}

/**
 * The chart as an SVG document fragment (`<svg>...</svg>`).
 *
 * @example
 * const { svg } = layoutChart();
 * svg.includes('data-state="exitLadder.stopHooks"'); // true
 */
export function layoutChart(chart: Chart = buildChart()): ChartSvg {
  const g = new dagre.graphlib.Graph({ multigraph: true, compound: true });
  g.setGraph({ rankdir: 'TB', nodesep: 28, ranksep: 34, edgesep: 12, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  const drawn = chart.transitions.filter((t) => t.target !== null);

  g.setNode(START_NODE, { width: 12, height: 12 });
  if (drawn.some((t) => t.source === null)) g.setNode(ANY_STATE_NODE, { width: ANY_STATE_NODE.length * CHAR_WIDTH + 16, height: 26 });
  for (const state of chart.states) {
    if (state.kind === 'compound') g.setNode(state.id, { paddingTop: 20 });
    else g.setNode(state.id, { width: Math.max(64, state.key.length * CHAR_WIDTH + 22), height: 30 });
    if (state.parent) g.setParent(state.id, state.parent);
  }
  g.setEdge(START_NODE, landing(chart, chart.initial), { width: 0, height: 0 }, 'start');
  for (const t of drawn) {
    const lines = edgeLabelLines(chart, t);
    const width = Math.max(0, ...lines.map((l) => l.length * 6.2)) + (lines.length ? 8 : 0);
    const from = t.source === null ? ANY_STATE_NODE : landing(chart, t.source);
    g.setEdge(from, landing(chart, t.target!), { width, height: lines.length * LINE_HEIGHT + (lines.length ? 4 : 0), labelpos: 'c' }, t.id);
  }
  dagre.layout(g);

  const parts: string[] = [];
  for (const state of chart.states.filter((s) => s.kind === 'compound')) {
    const n = g.node(state.id) as { x: number; y: number; width: number; height: number };
    parts.push(
      `<g class="cluster" data-state="${htmlEscape(state.id)}"><rect x="${r(n.x - n.width / 2)}" y="${r(n.y - n.height / 2)}" width="${r(n.width)}" height="${r(n.height)}" rx="10"/>` +
        `<text class="cluster-label" x="${r(n.x - n.width / 2 + 10)}" y="${r(n.y - n.height / 2 + 14)}">${htmlEscape(state.key)}</text></g>`,
    );
  }
  const start = g.edge({ v: START_NODE, w: landing(chart, chart.initial), name: 'start' }) as { points: Array<{ x: number; y: number }> };
  parts.push(`<g class="edge start"><path d="${pathThrough(start.points)}" marker-end="url(#arrow)"/></g>`);
  for (const t of drawn) {
    const from = t.source === null ? ANY_STATE_NODE : landing(chart, t.source);
    const e = g.edge({ v: from, w: landing(chart, t.target!), name: t.id }) as { points: Array<{ x: number; y: number }>; x: number; y: number; width: number; height: number };
    const lines = edgeLabelLines(chart, t);
    const cls = ['edge', t.continue ? 'continue' : '', t.source === null ? 'any' : ''].filter(Boolean).join(' ');
    const label = lines.length
      ? `<g class="edge-label"><rect x="${r(e.x - e.width / 2)}" y="${r(e.y - e.height / 2)}" width="${r(e.width)}" height="${r(e.height)}" rx="3"/>${textBlock(lines, e.x, e.y, 'label')}</g>`
      : '';
    // The halo is drawn always and only made visible for a taken transition: a paint-only change, so
    // highlighting a step never makes the browser lay the chart out again.
    const d = pathThrough(e.points);
    parts.push(`<g class="${cls}" data-transition="${htmlEscape(t.id)}"><path class="halo" d="${d}"/><path d="${d}" marker-end="url(#arrow)"/>${label}</g>`);
  }
  const s = g.node(START_NODE) as { x: number; y: number };
  parts.push(`<g class="node start"><circle cx="${r(s.x)}" cy="${r(s.y)}" r="6"/></g>`);
  if (g.hasNode(ANY_STATE_NODE)) {
    const n = g.node(ANY_STATE_NODE) as { x: number; y: number; width: number; height: number };
    parts.push(`<g class="node any"><rect x="${r(n.x - n.width / 2)}" y="${r(n.y - n.height / 2)}" width="${r(n.width)}" height="${r(n.height)}" rx="13"/>${textBlock([ANY_STATE_NODE], n.x, n.y, 'name')}</g>`);
  }
  for (const state of chart.states.filter((s) => s.kind !== 'compound')) {
    const n = g.node(state.id) as { x: number; y: number; width: number; height: number };
    const cls = `node${state.final ? ' final' : ''}`;
    const title = [state.id, ...state.entry.map((a) => `entry / ${describeRef(a)}`), state.description ?? ''].filter(Boolean).join('\n');
    const box = `<rect x="${r(n.x - n.width / 2)}" y="${r(n.y - n.height / 2)}" width="${r(n.width)}" height="${r(n.height)}" rx="8"/>`;
    const inner = state.final
      ? `<rect class="inner" x="${r(n.x - n.width / 2 + 3)}" y="${r(n.y - n.height / 2 + 3)}" width="${r(n.width - 6)}" height="${r(n.height - 6)}" rx="6"/>`
      : '';
    parts.push(`<g class="${cls}" data-state="${htmlEscape(state.id)}"><title>${htmlEscape(title)}</title>${box}${inner}${textBlock([state.key], n.x, n.y, 'name')}</g>`);
  }
  const graph = g.graph() as { width?: number; height?: number };
  const width = Math.ceil(graph.width ?? 0);
  const height = Math.ceil(graph.height ?? 0);
  const defs =
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">' +
    '<path d="M0,0 L10,5 L0,10 z"/></marker>' +
    '<marker id="arrow-taken" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="3.5" markerHeight="3.5" orient="auto-start-reverse">' +
    '<path class="taken" d="M0,0 L10,5 L0,10 z"/></marker></defs>';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" id="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="loop statechart">${defs}${parts.join('')}</svg>`;
  return { svg, width, height };
}
