/**
 * The viewer page's script (bundled by `scripts/build-viewer.ts` into `viewer.bundle.js`, inlined by `html.ts`).
 * It reads the embedded data (the chart and, for a session, its config, params and events), folds the events
 * with the pure `step()` (`session-model.ts`) and shows one step at a time.
 *
 * Entry point for a live feed: `window.turnloopViewer.addSteps(events)` appends events to the open page (the
 * embedded log goes through the same path), so an inspector can stream steps into it.
 *
 * Invariant: text from a session is put on the page with `textContent` only (no innerHTML anywhere).
 */
import type { LoopEvent } from '../../reducer/events.ts';
import type { ViewerData } from '../html.ts';
import { createChartView, type ChartView } from './chart-view.ts';
import { clear, make, renderPanels, type Panels } from './panels.ts';
import { CONTINUE, DONE, IGNORED, SessionModel, STATE_CHANGE, STAYED, TOOL_CALL } from './session-model.ts';
import { createVirtualList, type VirtualList } from './virtual-list.ts';

const ROW = 20;
const FINE_WINDOW = 200;

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

export interface TurnloopViewer {
  addSteps(events: LoopEvent[]): number;
  goTo(index: number): void;
  readonly current: number;
  readonly length: number;
  readonly model: SessionModel | null;
  readonly chart: ChartView;
  /** `performance.now()` when the page had folded the embedded session and shown its first step. */
  readonly readyAt: number;
}

declare global {
  interface Window {
    turnloopViewer?: TurnloopViewer;
  }
}

const FILTERS: Record<string, number> = { all: -1, change: STATE_CHANGE, stayed: STAYED, continue: CONTINUE, tool: TOOL_CALL, done: DONE, ignored: IGNORED };

function badge(flags: number): string {
  if (flags & DONE) return '■';
  if (flags & CONTINUE) return '↻';
  if (flags & TOOL_CALL) return '⚒';
  if (flags & STAYED) return '↺';
  if (flags & IGNORED) return '·';
  return '→';
}

function start(): void {
  const data = JSON.parse($('turnloop-data').textContent!) as ViewerData;
  const svg = document.getElementById('chart') as unknown as SVGSVGElement;
  const pane = $('chart-pane');
  const zoomLabel = $('zoom-level');
  const chart = createChartView(pane, svg, data.chart, (scale) => {
    zoomLabel.textContent = `${Math.round(scale * 100)}%`;
  });
  $('fit').addEventListener('click', () => {
    chart.setFollow(false);
    followBox.checked = false;
    chart.fit();
  });
  $('zoom-in').addEventListener('click', () => chart.zoomBy(1.25));
  $('zoom-out').addEventListener('click', () => chart.zoomBy(0.8));
  $('actual-size').addEventListener('click', () => chart.actualSize());
  const followBox = $<HTMLInputElement>('follow');
  followBox.addEventListener('change', () => chart.setFollow(followBox.checked));

  const session = data.session;
  if (!session) {
    chart.setFollow(false);
    chart.fit();
    window.turnloopViewer = { addSteps: () => 0, goTo: () => undefined, current: 0, length: 0, model: null, chart, readyAt: performance.now() };
    return;
  }
  const model = new SessionModel(data.chart, { config: session.config, params: session.params });
  const panels: Panels = {
    transitions: $('taken'),
    payload: $('payload'),
    changes: $('changes'),
    changeCount: $('change-count'),
    effects: $('effects'),
    pending: $('pending'),
    counters: $('counters'),
    tokenFill: $('token-fill'),
    markAutocompact: $('mark-autocompact'),
    markBlocking: $('mark-blocking'),
  };
  const scrubber = $<HTMLInputElement>('scrubber');
  const fine = $<HTMLInputElement>('fine');
  const search = $<HTMLInputElement>('search');
  const filter = $<HTMLSelectElement>('filter');
  const timelineBox = $('timeline');
  const announce = $('announce');
  let current = 0;
  /** Step indexes the timeline shows (null: all). */
  let shown: number[] | null = null;
  let selectedMessage = -1;

  const rowCount = () => (shown ? shown.length : model.length);
  const stepOfRow = (row: number) => (shown ? shown[row]! : row);
  const rowOfStep = (index: number) => (shown ? shown.indexOf(index) : index);

  const timeline: VirtualList = createVirtualList(timelineBox, ROW, {
    fill(row, r) {
      const i = stepOfRow(r);
      const e = model.entries[i]!;
      row.id = `step-${i}`;
      row.setAttribute('role', 'option');
      row.textContent = `${badge(e.flags)} ${i}. ${e.type} → ${e.state}`;
      row.title = e.summary;
      this.restyle!(row, r);
    },
    restyle(row, r) {
      const i = stepOfRow(r);
      row.setAttribute('aria-selected', String(i === current));
      row.className = `vl-row${i === current ? ' current' : ''}${model.entries[i]!.flags & STAYED ? ' stayed' : ''}`;
    },
  });
  timelineBox.addEventListener('click', (ev) => {
    const row = (ev.target as HTMLElement).closest('[data-index]') as HTMLElement | null;
    if (row) goTo(stepOfRow(Number(row.dataset['index'])));
  });

  const messageDetail = $('message-detail');
  const messages: VirtualList = createVirtualList($('messages'), ROW, {
    fill(row, r) {
      const { step, message } = model.emitted[r]!;
      row.textContent = `${step}. ${message.type}${message.tag ? ` · ${message.tag}` : ''}: ${message.text.slice(0, 200)}`;
      this.restyle!(row, r);
    },
    restyle(row, r) {
      row.className = `vl-row mono${model.emitted[r]!.step === current ? ' msg-new' : ''}${r === selectedMessage ? ' selected' : ''}`;
    },
  });
  $('messages').addEventListener('click', (ev) => {
    const row = (ev.target as HTMLElement).closest('[data-index]') as HTMLElement | null;
    if (!row) return;
    selectedMessage = Number(row.dataset['index']);
    const { step, message } = model.emitted[selectedMessage]!;
    messageDetail.textContent = `step ${step} · ${message.type}${message.tag ? ` · ${message.tag}` : ''} · ${message.uuid}\n\n${message.text}`;
    messages.refresh();
  });

  function applyFilter(): void {
    const mask = FILTERS[filter.value] ?? -1;
    const query = search.value.trim().toLowerCase();
    if (mask === -1 && !query) shown = null;
    else {
      shown = [];
      model.entries.forEach((e, i) => {
        if (mask !== -1 && !(e.flags & mask)) return;
        if (query && !`${e.type} ${e.state} ${e.summary}`.toLowerCase().includes(query)) return;
        shown!.push(i);
      });
    }
    $('match-count').textContent = shown ? `${shown.length} of ${model.length} steps` : `${model.length} steps`;
    timeline.setCount(rowCount());
    timeline.refresh();
    const row = rowOfStep(current);
    if (row >= 0) timeline.reveal(row);
  }
  search.addEventListener('input', applyFilter);
  filter.addEventListener('change', applyFilter);

  function syncRanges(): void {
    scrubber.max = String(model.length - 1);
    scrubber.value = String(current);
    const lo = Math.max(0, Math.min(current - FINE_WINDOW / 2, model.length - 1 - FINE_WINDOW));
    fine.min = String(lo);
    fine.max = String(Math.min(model.length - 1, lo + FINE_WINDOW));
    fine.value = String(current);
    $('fine-range').textContent = `${fine.min}–${fine.max}`;
  }

  function goTo(index: number): void {
    current = Math.max(0, Math.min(model.length - 1, Math.trunc(index) || 0));
    const { frame, event, changes } = model.detail(current);
    const entry = model.entries[current]!;
    // The two lists first: moving a scroll offset while the rest of the page is being changed would make the
    // browser lay the page out on the spot.
    messages.setCount(model.emittedUpTo[current]!);
    messages.reveal(Math.max(0, model.emittedUpTo[current]! - 1), 'end');
    const row = rowOfStep(current);
    if (row >= 0) timeline.reveal(row);
    else timeline.refresh();
    syncRanges();
    $('position').textContent = `step ${current} / ${model.length - 1}`;
    $<HTMLButtonElement>('prev').disabled = current === 0;
    $<HTMLButtonElement>('next').disabled = current === model.length - 1;
    $('event-type').textContent = event ? event.type : '(initial state)';
    $('event-summary').textContent = entry.summary;
    const name = $('state-name');
    name.textContent = frame.state;
    name.className = frame.status === 'done' ? 'done' : '';
    $('state-note').textContent =
      frame.status === 'done' ? `terminal: ${frame.terminal}` : entry.flags & STAYED ? 'stayed in this state (self-transition)' : frame.continueReason ? `last continue: ${frame.continueReason}` : '';
    chart.show(frame.state, frame.transitions, (entry.flags & STAYED) !== 0);
    renderPanels(panels, data.chart, frame, event, changes, data.limits);
    timelineBox.setAttribute('aria-activedescendant', row >= 0 ? `step-${current}` : '');
    document.body.setAttribute('data-active-state', frame.state);
    document.body.setAttribute('data-taken', frame.transitions.join(' '));
    announce.textContent = `Step ${current} of ${model.length - 1}: ${entry.type}, now in ${frame.state}`;
    // The address follows shortly after (replaceState costs a few ms; holding a key down would pay it per step).
    clearTimeout(hashTimer);
    hashTimer = setTimeout(() => {
      const hash = `#step=${current}`;
      if (location.hash !== hash) history.replaceState(null, '', hash);
    }, 120);
  }
  let hashTimer: ReturnType<typeof setTimeout> | undefined;

  function jump(dir: 1 | -1, mask: number): void {
    const i = model.find(current, dir, mask);
    if (i >= 0) goTo(i);
  }

  scrubber.addEventListener('input', () => goTo(Number(scrubber.value)));
  fine.addEventListener('input', () => goTo(Number(fine.value)));
  $('prev').addEventListener('click', () => goTo(current - 1));
  $('next').addEventListener('click', () => goTo(current + 1));
  const jumps: Array<[string, 1 | -1, number]> = [
    ['prev-change', -1, STATE_CHANGE],
    ['next-change', 1, STATE_CHANGE],
    ['prev-continue', -1, CONTINUE],
    ['next-continue', 1, CONTINUE],
    ['prev-tool', -1, TOOL_CALL],
    ['next-tool', 1, TOOL_CALL],
  ];
  for (const [id, dir, mask] of jumps) $(id).addEventListener('click', () => jump(dir, mask));

  timelineBox.addEventListener('keydown', (e) => {
    const row = rowOfStep(current);
    const go = (r: number) => {
      const clamped = Math.max(0, Math.min(rowCount() - 1, r));
      if (rowCount() > 0) goTo(stepOfRow(clamped));
    };
    const keys: Record<string, () => void> = {
      ArrowDown: () => go(row + 1),
      ArrowUp: () => go(row < 0 ? 0 : row - 1),
      PageDown: () => go(row + 20),
      PageUp: () => go(row - 20),
      Home: () => go(0),
      End: () => go(rowCount() - 1),
    };
    const run = keys[e.key];
    if (run) {
      run();
      e.preventDefault();
      e.stopPropagation();
    }
  });

  document.addEventListener('keydown', (e) => {
    const target = e.target as HTMLElement;
    if (target.closest('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey) return;
    const keys: Record<string, () => void> = {
      ArrowRight: () => (e.shiftKey ? jump(1, STATE_CHANGE) : goTo(current + 1)),
      ArrowLeft: () => (e.shiftKey ? jump(-1, STATE_CHANGE) : goTo(current - 1)),
      Home: () => goTo(0),
      End: () => goTo(model.length - 1),
      PageDown: () => goTo(current + 100),
      PageUp: () => goTo(current - 100),
      c: () => jump(1, CONTINUE),
      C: () => jump(-1, CONTINUE),
      t: () => jump(1, TOOL_CALL),
      T: () => jump(-1, TOOL_CALL),
      f: () => $('fit').click(),
      '.': () => followBox.click(),
      '/': () => search.focus(),
    };
    const run = keys[e.key];
    if (run) {
      run();
      e.preventDefault();
    }
  });

  function stepFromHash(): number | null {
    const match = /step=(\d+)/.exec(location.hash);
    return match ? Number(match[1]) : null;
  }
  window.addEventListener('hashchange', () => {
    const i = stepFromHash();
    if (i !== null && i !== current) goTo(i);
  });

  const startHistory = $('start-history');
  clear(startHistory);
  for (const m of data.initialMessages) {
    const li = make('li');
    li.appendChild(make('div', 'msg-head', `${m.type}${m.tag ? ` · ${m.tag}` : ''}`));
    li.appendChild(make('div', 'msg-text', m.text));
    startHistory.appendChild(li);
  }
  if (data.initialMessages.length === 0) startHistory.appendChild(make('li', 'empty', 'none'));

  function addSteps(events: LoopEvent[]): number {
    const wasAtEnd = current === model.length - 1;
    const added = model.addSteps(events);
    if (added === 0) return 0;
    applyFilter();
    if (wasAtEnd && followNewSteps) goTo(model.length - 1);
    else syncRanges();
    return added;
  }
  // The embedded events go through the same path a live feed uses; the page opens at `#step=N` or step 0, and
  // from then on a reader who is at the last step is moved along as new steps arrive.
  let followNewSteps = false;
  addSteps(session.events);
  followNewSteps = true;
  goTo(stepFromHash() ?? 0);

  window.turnloopViewer = {
    addSteps,
    goTo,
    get current() {
      return current;
    },
    get length() {
      return model.length;
    },
    model,
    chart,
    readyAt: performance.now(),
  };
}

start();
