/**
 * The detail panels of one step: event payload, state changes, transitions, effects, pending effects, counters.
 * Text from a session is only ever put on the page with `textContent`; nothing here parses HTML.
 */
import type { Counters, Frame, ViewEffect } from '../frames.ts';
import type { Chart, ChartTransition, NamedRef } from '../graph.ts';
import type { Change } from './state-diff.ts';

/** The longest preview of one value in the change list (the payload panel has the full event). */
const PREVIEW_CHARS = 240;

export function make(tag: string, cls?: string | null, text?: unknown): HTMLElement {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text !== undefined && text !== null) el.textContent = String(text);
  return el;
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

function fill<T>(list: HTMLElement, items: T[], build: (item: T) => HTMLElement, emptyText: string): void {
  clear(list);
  if (items.length === 0) list.appendChild(make('li', 'empty', emptyText));
  for (const item of items) list.appendChild(build(item));
}

function refText(ref: NamedRef): string {
  if (!ref.params) return ref.name;
  return `${ref.name}(${Object.entries(ref.params).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')})`;
}

export function describeTransition(t: ChartTransition): string {
  const from = t.source ?? '(any state)';
  const to = t.target === null ? '↺ stays' : `→ ${t.target}`;
  let text = `${from} ${to} on ${t.event}`;
  if (t.guard) text += ` [${refText(t.guard)}]`;
  if (t.actions.length) text += ` / ${t.actions.map(refText).join(', ')}`;
  if (t.continue) text += ` ↻ ${t.continue}`;
  return text;
}

export function preview(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value) ?? String(value);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}… (${text.length} chars)` : text;
}

const numbers = new Intl.NumberFormat('en-US');
const fmt = (n: number) => numbers.format(n);

export interface Panels {
  transitions: HTMLElement;
  payload: HTMLElement;
  changes: HTMLElement;
  changeCount: HTMLElement;
  effects: HTMLElement;
  pending: HTMLElement;
  counters: HTMLElement;
  tokenFill: HTMLElement;
  markAutocompact: HTMLElement;
  markBlocking: HTMLElement;
}

export interface Limits {
  maxOutputTokensRecovery: number;
  autocompactMaxFailures: number;
}

function changeItem(change: Change): HTMLElement {
  const li = make('li', `change ${change.kind}`);
  li.appendChild(make('span', 'path', change.path));
  const body =
    change.kind === 'added' ? `+ ${preview(change.after)}` : change.kind === 'removed' ? `− ${preview(change.before)}` : `${preview(change.before)} → ${preview(change.after)}`;
  li.appendChild(make('span', 'value', body));
  return li;
}

const effectItem = (e: ViewEffect) => make('li', 'mono', `${e.type}${e.summary ? `: ${e.summary}` : ''}  (${e.id})`);

function renderCounters(p: Panels, c: Counters, limits: Limits): void {
  const rows: Array<[string, string | number]> = [
    ['turn', c.turnCount],
    ['model calls', c.modelCalls],
    ['max-output recoveries', `${c.maxOutputTokensRecoveryCount} / ${limits.maxOutputTokensRecovery}`],
    ['autocompact failures', `${c.autocompactFailures} / ${limits.autocompactMaxFailures}`],
    ['model', c.model],
    ['tokens', fmt(c.tokens)],
    ['autocompact at', fmt(c.autocompactThreshold)],
    ['blocking limit', fmt(c.blockingLimit)],
  ];
  clear(p.counters);
  for (const [name, value] of rows) {
    const tr = make('tr');
    tr.appendChild(make('td', null, name));
    tr.appendChild(make('td', 'value', value));
    p.counters.appendChild(tr);
  }
  const share = Math.min(1, c.tokens / c.effectiveWindow);
  p.tokenFill.style.width = `${(share * 100).toFixed(2)}%`;
  p.tokenFill.className = `fill${c.tokens >= c.blockingLimit ? ' over' : c.tokens >= c.autocompactThreshold ? ' warn' : ''}`;
  p.markAutocompact.style.left = `${((c.autocompactThreshold / c.effectiveWindow) * 100).toFixed(2)}%`;
  p.markBlocking.style.left = `${((c.blockingLimit / c.effectiveWindow) * 100).toFixed(2)}%`;
}

/** Fills every panel for one step. */
export function renderPanels(p: Panels, chart: Chart, frame: Frame, event: unknown, changes: Change[], limits: Limits): void {
  const byId = new Map(chart.transitions.map((t) => [t.id, t]));
  const taken = frame.transitions.map((id) => byId.get(id)).filter((t): t is ChartTransition => t !== undefined);
  fill(p.transitions, taken, (t) => make('li', `mono${t.target === null ? ' stays' : ''}`, describeTransition(t)), 'no transition (event ignored)');
  p.payload.textContent = event === null ? '(initial state: no event)' : JSON.stringify(event, null, 2);
  fill(p.changes, changes, changeItem, event === null ? 'initial state' : 'nothing changed');
  p.changeCount.textContent = changes.length ? `(${changes.length}${changes.length >= 200 ? '+' : ''})` : '';
  fill(p.effects, frame.effects, effectItem, 'none');
  fill(p.pending, frame.pending, effectItem, 'none');
  renderCounters(p, frame.counters, limits);
}
