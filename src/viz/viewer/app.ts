/**
 * The viewer page's script (bundled by `scripts/build-viewer.ts` into `viewer.bundle.js`, inlined by `html.ts`).
 * It reads the embedded data (the chart and, for a session, its config, params and events, and those of its
 * subagent runs), folds the events with the pure `step()` (`session-model.ts`, one model per run: `run-tree.ts`)
 * and shows one step of one run at a time: the chart and the panels are the run's whose step is selected.
 *
 * Entry point for a live feed: `window.turnloopViewer.addSteps(events)` appends events to the open page (the
 * embedded log goes through the same path), so an inspector can stream steps into it.
 *
 * Invariant: text from a session is put on the page with `textContent` only (no innerHTML anywhere).
 */
import type { LoopEvent } from '../../data/events.ts';
import type { ViewerData } from '../html.ts';
import { createChartView, type ChartView } from './chart-view.ts';
import { clear, make, renderPanels, type Panels } from './panels.ts';
import { RunTree, startingHistory, type RunNode } from './run-tree.ts';
import { CONTINUE, DONE, IGNORED, MESSAGE, SessionModel, STATE_CHANGE, STAYED, TOOL_CALL } from './session-model.ts';
import { conversationOf, runEntries } from './conversation.ts';
import { createConversationView, type ConversationView } from './conversation-view.ts';
import { summarise, summaryFigures } from './session-summary.ts';
import { createTimeline, runPathText, type Timeline } from './timeline.ts';
import { createVirtualList, type VirtualList } from './virtual-list.ts';

const ROW = 20;
const FINE_WINDOW = 200;

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

export interface TurnloopViewer {
  /** Appends events to the root run. */
  addSteps(events: LoopEvent[]): number;
  /** Shows step `index` of the run reached through `path` (tool_use ids from the root; default: the run shown). */
  goTo(index: number, path?: string[]): void;
  /** Opens (or closes) the timeline group of the subagent run at `path`. */
  expand(path: string[], open?: boolean): void;
  /** The step shown, in the run shown. */
  readonly current: number;
  /** Steps of the run shown. */
  readonly length: number;
  /** The run shown: tool_use ids from the root ([] for the root). */
  readonly run: string[];
  readonly model: SessionModel | null;
  readonly tree: RunTree | null;
  readonly chart: ChartView;
  /** The conversation column's entries (only a window of them is drawn): kind, run (tool_use ids), step, text. */
  readonly conversation: ReadonlyArray<{ kind: string; run: string[]; step: number; text: string }>;
  /** `performance.now()` when the page had folded the embedded session and shown its first step. */
  readonly readyAt: number;
}

declare global {
  interface Window {
    turnloopViewer?: TurnloopViewer;
  }
}

const FILTERS: Record<string, number> = { all: -1, messages: MESSAGE, change: STATE_CHANGE, stayed: STAYED, continue: CONTINUE, tool: TOOL_CALL, done: DONE, ignored: IGNORED };

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
  $('overview').addEventListener('click', () => {
    chart.setFollow(false);
    followBox.checked = false;
    chart.overview();
  });
  // The legend starts folded where it would cover much of a small chart pane (1280×720 and below).
  if (pane.clientWidth < 900 || pane.clientHeight < 700) $<HTMLDetailsElement>('legend').open = false;
  $('zoom-in').addEventListener('click', () => chart.zoomBy(1.25));
  $('zoom-out').addEventListener('click', () => chart.zoomBy(0.8));
  $('actual-size').addEventListener('click', () => chart.actualSize());
  const followBox = $<HTMLInputElement>('follow');
  followBox.addEventListener('change', () => chart.setFollow(followBox.checked));

  const session = data.session;
  if (!session) {
    chart.setFollow(false);
    chart.fit();
    window.turnloopViewer = { addSteps: () => 0, goTo: () => undefined, expand: () => undefined, current: 0, length: 0, run: [], model: null, tree: null, chart, conversation: [], readyAt: performance.now() };
    return;
  }
  const tree = new RunTree(data.chart, session);
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
  const announce = $('announce');
  /** The run shown (the root or a subagent's) and its step. */
  let run: RunNode = tree.root;
  let current = 0;
  /** The run whose messages and starting history the side panel lists. */
  let listed: RunNode | null = null;
  let selectedMessage = -1;
  const model = () => run.model;
  /** The conversation column (built once the embedded runs are folded) and how much of the root's output it lists. */
  let conversation: ConversationView | null = null;
  let rootEntriesFrom = 0;

  const timeline: Timeline = createTimeline($('timeline'), tree, {
    selected: () => ({ run, step: current }),
    select: (r, step) => goTo(step, r),
    filter() {
      const mask = FILTERS[filter.value] ?? -1;
      const query = search.value.trim().toLowerCase();
      if (mask === -1 && !query) return null;
      return (e) => (mask === -1 || (e.flags & mask) !== 0) && (!query || `${e.type} ${e.state} ${e.summary}`.toLowerCase().includes(query));
    },
  });

  const messageDetail = $('message-detail');
  const messages: VirtualList = createVirtualList($('messages'), ROW, {
    fill(row, r) {
      const { step, message } = model().emitted[r]!;
      row.textContent = `${step}. ${message.type}${message.tag ? ` · ${message.tag}` : ''}: ${message.text.slice(0, 200)}`;
      this.restyle!(row, r);
    },
    restyle(row, r) {
      row.className = `vl-row mono${model().emitted[r]!.step === current ? ' msg-new' : ''}${r === selectedMessage ? ' selected' : ''}`;
    },
  });
  $('messages').addEventListener('click', (ev) => {
    const row = (ev.target as HTMLElement).closest('[data-index]') as HTMLElement | null;
    if (!row) return;
    selectedMessage = Number(row.dataset['index']);
    const { step, message } = model().emitted[selectedMessage]!;
    messageDetail.textContent = `step ${step} · ${message.type}${message.tag ? ` · ${message.tag}` : ''} · ${message.uuid}\n\n${message.text}`;
    messages.refresh();
  });

  function applyFilter(): void {
    $('match-count').textContent = timeline.rebuild();
  }
  search.addEventListener('input', applyFilter);
  filter.addEventListener('change', applyFilter);

  function syncRanges(): void {
    const last = model().length - 1;
    scrubber.max = String(last);
    scrubber.value = String(current);
    const lo = Math.max(0, Math.min(current - FINE_WINDOW / 2, last - FINE_WINDOW));
    fine.min = String(lo);
    fine.max = String(Math.min(last, lo + FINE_WINDOW));
    fine.value = String(current);
    $('fine-range').textContent = `${fine.min}–${fine.max}`;
  }

  /** The side panel follows the run shown: its history and header; returns whether the run changed. */
  function listRun(): boolean {
    if (listed === run) return false;
    listed = run;
    selectedMessage = -1;
    messageDetail.textContent = '(click a message for its full text)';
    const startHistory = $('start-history');
    clear(startHistory);
    const history = startingHistory(run);
    for (const m of history) {
      const li = make('li');
      li.appendChild(make('div', 'msg-head', `${m.type}${m.tag ? ` · ${m.tag}` : ''}`));
      li.appendChild(make('div', 'msg-text', m.text));
      startHistory.appendChild(li);
    }
    if (history.length === 0) startHistory.appendChild(make('li', 'empty', 'none'));
    $('run-path').textContent = tree.hasChildren ? runPathText(run) : '';
    const check = $('run-check');
    check.textContent = run.check ? (run.check.ok ? 'engine = recording' : `✗ engine ≠ recording: ${run.check.notes.join('; ')}`) : '';
    check.className = run.check && !run.check.ok ? 'differs' : '';
    check.title = run.check ? `recorded at ${run.check.file}:${run.check.line}; ending recorded ${run.check.ending.recorded}, engine ${run.check.ending.engine}; model calls recorded ${run.check.modelCalls.recorded}, engine ${run.check.modelCalls.engine}` : '';
    document.body.setAttribute('data-run', run.key);
    return true;
  }

  /** Shows step `index` of `target` (default: the run shown now). */
  function goTo(index: number, target: RunNode = run): void {
    run = target;
    const m = model();
    current = Math.max(0, Math.min(m.length - 1, Math.trunc(index) || 0));
    const { frame, event, changes } = m.detail(current);
    const entry = m.entries[current]!;
    // The conversation before anything else changes: scrolling its mark into view lays out only the column.
    conversation?.show(run, current);
    // The two lists first: moving a scroll offset while the rest of the page is being changed would make the
    // browser lay the page out on the spot.
    const switched = listRun();
    messages.setCount(m.emittedUpTo[current]!);
    if (switched) messages.refresh(); // the rows on screen still show the other run's messages
    messages.reveal(Math.max(0, m.emittedUpTo[current]! - 1), 'end');
    if (run.depth > 0) timeline.expand(run, true);
    timeline.showSelection();
    syncRanges();
    $('position').textContent = `step ${current} / ${m.length - 1}`;
    $<HTMLButtonElement>('prev').disabled = current === 0;
    $<HTMLButtonElement>('next').disabled = current === m.length - 1;
    $('event-type').textContent = event ? event.type : '(initial state)';
    $('event-summary').textContent = entry.summary;
    const name = $('state-name');
    name.textContent = frame.state;
    name.className = frame.status === 'done' ? 'done' : '';
    $('state-note').textContent =
      frame.status === 'done' ? `terminal: ${frame.terminal}` : entry.flags & STAYED ? 'stayed in this state (self-transition)' : frame.continueReason ? `last continue: ${frame.continueReason}` : '';
    chart.show(frame.state, frame.transitions, (entry.flags & STAYED) !== 0);
    renderPanels(panels, data.chart, frame, event, changes, m.config.limits);
    document.body.setAttribute('data-active-state', frame.state);
    document.body.setAttribute('data-taken', frame.transitions.join(' '));
    const where = run.depth > 0 ? (run.kind === 'run' ? `${run.label}: ` : `${run.label} (${run.path.at(-1)}): `) : '';
    announce.textContent = `${where}Step ${current} of ${m.length - 1}: ${entry.type}, now in ${frame.state}`;
    // The address follows shortly after (replaceState costs a few ms; holding a key down would pay it per step).
    clearTimeout(hashTimer);
    hashTimer = setTimeout(() => {
      const hash = hashOf(run, current);
      if (location.hash !== hash) history.replaceState(null, '', hash);
    }, 120);
  }
  let hashTimer: ReturnType<typeof setTimeout> | undefined;

  function jump(dir: 1 | -1, mask: number): void {
    const i = model().find(current, dir, mask);
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

  document.addEventListener('keydown', (e) => {
    const target = e.target as HTMLElement;
    if (target.closest('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey) return;
    const keys: Record<string, () => void> = {
      ArrowRight: () => (e.shiftKey ? jump(1, STATE_CHANGE) : goTo(current + 1)),
      ArrowLeft: () => (e.shiftKey ? jump(-1, STATE_CHANGE) : goTo(current - 1)),
      Home: () => goTo(0),
      End: () => goTo(model().length - 1),
      PageDown: () => goTo(current + 100),
      PageUp: () => goTo(current - 100),
      c: () => jump(1, CONTINUE),
      C: () => jump(-1, CONTINUE),
      t: () => jump(1, TOOL_CALL),
      T: () => jump(-1, TOOL_CALL),
      m: () => jump(1, MESSAGE),
      M: () => jump(-1, MESSAGE),
      f: () => $('fit').click(),
      o: () => $('overview').click(),
      '.': () => followBox.click(),
      '/': () => search.focus(),
    };
    const run = keys[e.key];
    if (run) {
      run();
      e.preventDefault();
    }
  });

  /** The step an address names: `#step=N` (the root's) or `#run=<tool_use id>/<tool_use id>&step=N` (a subagent's). */
  function fromHash(): { run: RunNode; step: number } | null {
    const step = /step=(\d+)/.exec(location.hash);
    if (!step) return null;
    const path = /run=([^&]*)/.exec(location.hash);
    let target: RunNode | null = tree.root;
    try {
      if (path) target = tree.find(path[1]!.split('/').map(decodeURIComponent));
    } catch {
      target = null; // a malformed address (a stray `%`) names no run
    }
    return target ? { run: target, step: Number(step[1]) } : null;
  }
  window.addEventListener('hashchange', () => {
    const at = fromHash();
    if (at && (at.step !== current || at.run !== run)) goTo(at.step, at.run);
  });

  function addSteps(events: LoopEvent[]): number {
    const root = tree.root.model;
    const wasAtEnd = run === tree.root && current === root.length - 1;
    const added = root.addSteps(events);
    if (added === 0) return 0;
    if (conversation) {
      conversation.append(runEntries(tree, tree.root, rootEntriesFrom, false));
      rootEntriesFrom = root.emitted.length;
      showSummary();
    }
    applyFilter();
    if (wasAtEnd && followNewSteps) goTo(root.length - 1);
    else syncRanges();
    return added;
  }
  // The embedded events go through the same path a live feed uses; the page opens at the address's step or step
  // 0, and from then on a reader who is at the root's last step is moved along as new steps arrive.
  let followNewSteps = false;
  addSteps(session.events);
  if (session.events.length === 0) applyFilter();
  followNewSteps = true;
  // The conversation and the header's figures, once every run is folded (a live feed appends to them).
  conversation = createConversationView($('conversation'), (r, step) => goTo(step, r));
  conversation.append(conversationOf(tree));
  rootEntriesFrom = tree.root.model.emitted.length;
  $('messages-only').addEventListener('change', (e) => conversation!.messagesOnly((e.target as HTMLInputElement).checked));
  function showSummary(): void {
    const prompt = conversation!.entries.find((e) => e.kind === 'prompt');
    const summary = summarise(tree, prompt ? prompt.text : null);
    const promptEl = $('summary-prompt');
    promptEl.textContent = summary.firstPrompt === null ? '(no prompt)' : `“${summary.firstPrompt.replace(/\s+/g, ' ').slice(0, 300)}”`;
    promptEl.title = summary.firstPrompt ?? '';
    const figures = $('summary-figures');
    clear(figures);
    for (const [label, value] of summaryFigures(summary)) {
      const fig = make('span', `fig fig-${label.replace(/\s+/g, '-')}${label === 'ending' && summary.differs > 0 ? ' differs' : ''}`);
      fig.appendChild(make('span', 'fig-label', label));
      fig.appendChild(make('span', 'fig-value', value));
      figures.appendChild(fig);
    }
  }
  showSummary();
  // A transcript's later runs are part of the one conversation: listed open, as the first run's steps are.
  for (const r of tree.root.children) if (r.kind === 'run') timeline.expand(r, true);
  const opening = fromHash();
  goTo(opening?.step ?? 0, opening?.run ?? tree.root);

  window.turnloopViewer = {
    addSteps,
    goTo(index, path) {
      const target = path ? tree.find(path) : run;
      if (target) goTo(index, target);
    },
    expand(path, open = true) {
      const target = tree.find(path);
      if (target && target.depth > 0) timeline.expand(target, open);
    },
    get current() {
      return current;
    },
    get length() {
      return model().length;
    },
    get run() {
      return run.path;
    },
    get model() {
      return model();
    },
    tree,
    chart,
    get conversation() {
      return conversation!.entries.map((e) => ({ kind: e.kind, run: e.run.path, step: e.step, text: e.text }));
    },
    readyAt: performance.now(),
  };
}

/** The address of a step: `#step=N` for the root's, `#run=...&step=N` for a subagent's. */
function hashOf(run: RunNode, step: number): string {
  return run.depth === 0 ? `#step=${step}` : `#run=${run.path.map(encodeURIComponent).join('/')}&step=${step}`;
}

start();
