/**
 * The timeline: a virtual listbox of the steps of the session and, under the step that ran each subagent's tool
 * call, the subagent's group (collapsed by default; expanded, its own steps one level in). The selected step is
 * the app's; the cursor may also rest on a group header (→, Enter or Space expand it, ← collapses it).
 *
 * Without subagents and without a filter the rows are the root's steps themselves (row i = step i), so a long
 * session costs nothing to list; otherwise the rows are rebuilt on each filter change, new steps or toggle.
 */
import { groupKey, stepKey, type RunNode, type RunTree, type StepFilter, type TimelineRow } from './run-tree.ts';
import { CONTINUE, DONE, IGNORED, STAYED, TOOL_CALL } from './session-model.ts';
import { createVirtualList } from './virtual-list.ts';

const ROW = 20;
const INDENT = 16;

export interface TimelineHost {
  /** The step the page shows. */
  selected(): { run: RunNode; step: number };
  select(run: RunNode, step: number): void;
  /** The search and filter in force (null: every step). */
  filter(): StepFilter;
}

export interface Timeline {
  /** Rebuilds the rows (new steps, another filter); returns the match count line. */
  rebuild(): string;
  /** Scrolls the selected step's row into view and restyles the rows; call after the selection changed. */
  showSelection(): void;
  /** Opens (or closes) a subagent's group; opening a run opens its ancestors too. */
  expand(run: RunNode, open: boolean): void;
}

function badge(flags: number): string {
  if (flags & DONE) return '■';
  if (flags & CONTINUE) return '↻';
  if (flags & TOOL_CALL) return '⚒';
  if (flags & STAYED) return '↺';
  if (flags & IGNORED) return '·';
  return '→';
}

/** The DOM id of a step row (the root's keep the plain `step-N`). */
export function stepRowId(run: RunNode, step: number): string {
  return run.depth === 0 ? `step-${step}` : `run-${run.key}-step-${step}`;
}

export function createTimeline(box: HTMLElement, tree: RunTree, host: TimelineHost): Timeline {
  const expanded = new Set<string>();
  /** null: the root's steps, row i = step i. */
  let rows: TimelineRow[] | null = null;
  let rowIndex = new Map<string, number>();
  /** The group header the cursor rests on, if it does. */
  let cursorGroup: RunNode | null = null;

  const rowCount = () => (rows ? rows.length : tree.root.model.length);
  const rowAt = (r: number): TimelineRow => (rows ? rows[r]! : { kind: 'step', run: tree.root, step: r });
  function cursorRow(): number {
    if (cursorGroup) return rowIndex.get(groupKey(cursorGroup)) ?? -1;
    const { run, step } = host.selected();
    if (!rows) return run === tree.root ? step : -1;
    return rowIndex.get(stepKey(run, step)) ?? -1;
  }

  const list = createVirtualList(box, ROW, {
    fill(el, r) {
      const row = rowAt(r);
      el.setAttribute('role', 'option');
      // A group's header sits half a level in from its parent's steps, the child's steps a full level.
      el.style.paddingLeft = `${4 + (row.kind === 'group' ? (row.run.depth - 0.5) * INDENT : row.run.depth * INDENT)}px`;
      if (row.kind === 'group') {
        const s = tree.summary(row.run);
        const open = expanded.has(row.run.key);
        el.id = `group-${row.run.key}`;
        el.setAttribute('aria-expanded', String(open));
        el.textContent = `${open ? '▾' : '▸'} ${s.differs ? '✗ ' : ''}${s.agent} · ${s.steps} steps · ${s.terminal ?? 'unfinished'}`;
        const what = s.kind === 'run' ? 'the next loop run of this thread' : `subagent run for tool call ${s.toolUseId}`;
        el.title = `${what}${s.differs ? ' (the engine and the recording disagree)' : ''}: click or → to ${open ? 'collapse' : 'expand'}`;
      } else {
        const e = row.run.model.entries[row.step]!;
        el.id = stepRowId(row.run, row.step);
        el.removeAttribute('aria-expanded');
        el.textContent = `${badge(e.flags)} ${row.step}. ${e.type} → ${e.state}`;
        el.title = e.summary;
      }
      this.restyle!(el, r);
    },
    restyle(el, r) {
      const row = rowAt(r);
      const { run, step } = host.selected();
      const here = row.kind === 'group' ? cursorGroup === row.run : !cursorGroup && row.run === run && row.step === step;
      el.setAttribute('aria-selected', String(here));
      const kind = row.kind === 'group' ? ' group' : row.run.model.entries[row.step]!.flags & STAYED ? ' stayed' : '';
      const differs = row.kind === 'group' && row.run.check !== null && !row.run.check.ok ? ' differs' : '';
      el.className = `vl-row${here ? ' current' : ''}${kind}${differs}${row.kind === 'step' && row.run.depth > 0 ? ' child' : ''}`;
    },
  });

  function rebuild(): string {
    const keep = host.filter();
    if (!tree.hasChildren && !keep) {
      rows = null;
      rowIndex = new Map();
    } else {
      rows = tree.rows(expanded, keep);
      rowIndex = new Map(rows.map((row, i) => [row.kind === 'group' ? groupKey(row.run) : stepKey(row.run, row.step), i]));
    }
    if (cursorGroup && !rowIndex.has(groupKey(cursorGroup))) cursorGroup = null;
    list.setCount(rowCount());
    list.refresh();
    showSelection();
    const later = tree.runs.filter((r) => r.kind === 'run').length;
    const children = tree.runs.length - 1 - later;
    const runs = `${later > 0 ? ` · ${later + 1} runs` : ''}${children > 0 ? ` · ${children} subagent run${children === 1 ? '' : 's'}` : ''}`;
    if (!keep) return `${tree.root.model.length} steps${runs}`;
    const visible = tree.runs.filter((r) => r.depth === 0 || isOpen(r));
    const steps = rows!.filter((row) => row.kind === 'step').length;
    return `${steps} of ${visible.reduce((n, r) => n + r.model.length, 0)} steps${runs}`;
  }

  /** Whether a run's steps are listed: its group and every group above it are open. */
  function isOpen(run: RunNode): boolean {
    for (let r: RunNode | null = run; r && r.depth > 0; r = r.parent) if (!expanded.has(r.key)) return false;
    return true;
  }

  function showSelection(): void {
    const r = cursorRow();
    box.setAttribute('aria-activedescendant', r < 0 ? '' : cursorGroup ? `group-${cursorGroup.key}` : stepRowId(host.selected().run, host.selected().step));
    if (r >= 0) list.reveal(r);
    else list.refresh();
  }

  function expand(run: RunNode, open: boolean): void {
    let changed = false;
    for (let r: RunNode | null = run; r && r.depth > 0; r = open ? r.parent : null) {
      if (expanded.has(r.key) === open) continue;
      if (open) expanded.add(r.key);
      else expanded.delete(r.key);
      changed = true;
    }
    if (changed) rebuild();
  }

  /** Moves the cursor to row `r`: a step row selects that step, a group row only takes the cursor. */
  function moveTo(r: number): void {
    if (rowCount() === 0) return;
    const row = rowAt(Math.max(0, Math.min(rowCount() - 1, r)));
    if (row.kind === 'step') {
      cursorGroup = null;
      host.select(row.run, row.step);
    } else {
      cursorGroup = row.run;
      showSelection();
    }
  }

  box.addEventListener('click', (ev) => {
    const el = (ev.target as HTMLElement).closest('[data-index]') as HTMLElement | null;
    if (!el) return;
    const r = Number(el.dataset['index']);
    const row = rowAt(r);
    if (row.kind === 'group') {
      cursorGroup = row.run;
      expand(row.run, !expanded.has(row.run.key));
      showSelection();
    } else moveTo(r);
  });

  box.addEventListener('keydown', (e) => {
    const r = cursorRow();
    const onGroup = cursorGroup;
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(r + 1),
      ArrowUp: () => moveTo(r < 0 ? 0 : r - 1),
      PageDown: () => moveTo(r + 20),
      PageUp: () => moveTo(r - 20),
      Home: () => moveTo(0),
      End: () => moveTo(rowCount() - 1),
    };
    if (onGroup) {
      const open = () => (expanded.has(onGroup.key) ? moveTo(r + 1) : expand(onGroup, true));
      keys['ArrowRight'] = open;
      keys['Enter'] = open;
      keys[' '] = () => expand(onGroup, !expanded.has(onGroup.key));
      keys['ArrowLeft'] = () => expand(onGroup, false);
    }
    const run = keys[e.key];
    if (run) {
      run();
      e.preventDefault();
      e.stopPropagation();
    }
  });

  return {
    rebuild,
    showSelection() {
      cursorGroup = null;
      showSelection();
    },
    expand,
  };
}

/** A run's place, for the header: `main › Explore [toolu_1]`, `main › run 2`. */
export function runPathText(run: RunNode): string {
  const parts: string[] = [];
  for (let r: RunNode | null = run; r && r.depth > 0; r = r.parent) parts.unshift(r.kind === 'run' ? r.label : `${r.label} [${r.path.at(-1)}]`);
  return ['main', ...parts].join(' › ');
}
