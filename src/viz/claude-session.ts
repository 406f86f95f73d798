/**
 * A Claude Code transcript as the viewer sees it: every loop run of the session re-driven through the engine
 * (`checkRunDriven`: the engine asks, the recording answers) and laid out as one tree of runs for one page.
 *
 * Layout of the tree:
 * - the main thread's first run is the root; each later run of the thread (a new prompt) is a child of kind
 *   `run`, keyed `run-<n>`, so the timeline lists them after the root's last step, in order;
 * - a subagent (2.x `subagents/` file or 1.0.x inline sidechain) hangs under the main run that asked for its Task
 *   call (the timeline puts it under that step); one that is not linked (a compaction agent) under the root;
 * - a subagent's own later runs are its children of kind `run`, as for the main thread.
 * Each run carries the check's verdict (`RunVerdict`), so the page can mark where the engine and the recording
 * disagree. Reads the transcript files; otherwise pure.
 */
import { checkRunDriven, type CheckedRun } from '../claude/check.ts';
import { splitRuns, type RecordedRun } from '../claude/runs.ts';
import { readClaudeSession, type ChildTranscript } from '../claude/session.ts';
import type { Transcript } from '../claude/transcript.ts';
import type { LoopEvent } from '../data/events.ts';
import type { ChildRunForView, RunVerdict, SessionForView } from './session.ts';

export interface ClaudeSessionView {
  /** The main thread's runs as one tree (null: the transcript has no run, only prompts). */
  session: SessionForView | null;
  /** Runs in the session, subagents' included. */
  runs: number;
  /** Runs where the engine and the recording disagree. */
  differing: number;
  /** Task calls whose subagent the session does not record (listed, not drawn). */
  notShown: string[];
}

function verdictOf(run: RecordedRun, checked: CheckedRun, file: string): RunVerdict {
  const c = checked.check;
  return {
    ok: c.ok,
    file,
    line: run.startLine,
    ending: { recorded: c.ending.recorded, engine: c.ending.got },
    modelCalls: { recorded: c.modelCalls.expected, engine: c.modelCalls.got },
    notes: [
      ...(c.modelCalls.expected === c.modelCalls.got ? [] : [`model calls: recorded ${c.modelCalls.expected}, engine ${c.modelCalls.got}`]),
      ...(c.toolResults.paired ? [] : [`tool results: recorded ${c.toolResults.expected.length}, engine ${c.toolResults.got.length}, not in the same order`]),
      ...(c.ending.got === c.ending.expected || run.ending === 'incomplete' ? [] : [`ending: recorded ${c.ending.recorded}, engine ${c.ending.got}`]),
      ...(c.autocompact.same ? [] : [`autocompact before call: recorded ${c.autocompact.recorded.join(',') || '-'}, engine ${c.autocompact.engine.join(',') || '-'}`]),
      ...c.notes,
    ],
  };
}

interface DrivenThread {
  /** One view per run, in order, without children yet. */
  views: SessionForView[];
  /** The tool_use ids each run's replies asked for. */
  asked: Array<Set<string>>;
}

function toolUsesOf(events: readonly LoopEvent[]): Set<string> {
  const ids = new Set<string>();
  for (const e of events) if (e.type === 'model_message') for (const b of e.message.message.content) if (b.type === 'tool_use') ids.add(b.id);
  return ids;
}

function driveThread(transcript: Transcript, querySource: string): DrivenThread {
  const views: SessionForView[] = [];
  const asked: Array<Set<string>> = [];
  for (const run of splitRuns(transcript)) {
    const checked = checkRunDriven(run, querySource);
    const { params, events } = checked.driven;
    views.push({ config: checked.config, params, events, indexes: events.map((_, i) => i + 1), check: verdictOf(run, checked, transcript.file) });
    asked.push(toolUsesOf(events));
  }
  return { views, asked };
}

/** The thread's runs as a tree: its first run, with each later one (and whatever `extra` adds) as a child. */
function chain(thread: DrivenThread, extra: (run: number) => ChildRunForView[]): SessionForView | null {
  const [first, ...later] = thread.views;
  if (!first) return null;
  const laterRuns: ChildRunForView[] = later.map((session, i) => {
    const n = i + 2;
    const children = extra(n - 1);
    return { toolUseId: `run-${n}`, agent: null, kind: 'run', label: `run ${n}`, session: children.length > 0 ? { ...session, children } : session };
  });
  const children = [...extra(0), ...laterRuns];
  return children.length > 0 ? { ...first, children } : first;
}

/** What the parent's Task call asked for, to name the subagent (`Explore: find the tests`). */
function agentNames(thread: DrivenThread): Map<string, string> {
  const names = new Map<string, string>();
  for (const view of thread.views) {
    for (const e of view.events) {
      if (e.type !== 'model_message') continue;
      for (const b of e.message.message.content) {
        if (b.type !== 'tool_use') continue;
        const input = (b.input ?? {}) as Record<string, unknown>;
        const kind = typeof input['subagent_type'] === 'string' ? input['subagent_type'] : null;
        const what = typeof input['description'] === 'string' ? input['description'] : null;
        if (kind || what) names.set(b.id, [kind, what].filter(Boolean).join(': '));
      }
    }
  }
  return names;
}

function childView(child: ChildTranscript, names: Map<string, string>): ChildRunForView | null {
  const session = chain(driveThread(child.transcript, child.querySource), () => []);
  if (!session) return null;
  const agent = child.querySource === 'compact' ? 'compaction' : ((child.toolUseId && names.get(child.toolUseId)) ?? (child.agentId ? `agent ${child.agentId}` : 'subagent'));
  const key = child.toolUseId ?? `${child.querySource === 'compact' ? 'compaction' : 'agent'}-${child.agentId ?? child.startLine}`;
  return { toolUseId: key, agent, kind: 'subagent', session };
}

const runsIn = (s: SessionForView): number => 1 + (s.children ?? []).reduce((n, c) => n + runsIn(c.session), 0);
const differingIn = (s: SessionForView): number => (s.check && !s.check.ok ? 1 : 0) + (s.children ?? []).reduce((n, c) => n + differingIn(c.session), 0);

/**
 * Reads a Claude Code session (its main thread and, unless `subagents: false`, its subagents) and re-drives every
 * run for the viewer.
 *
 * @example
 * const file = join(homedir(), '.claude/projects/-home-me-app/0b6c….jsonl'); // Node does not expand '~/'
 * const view = claudeSessionForView(file);
 * writeFileSync('view.html', renderViewerHtml(viewerData(view.session)));
 */
export function claudeSessionForView(file: string, options: { subagents?: boolean } = {}): ClaudeSessionView {
  const claude = readClaudeSession(file, options);
  const main = driveThread(claude.main, 'repl_main_thread');
  const names = agentNames(main);
  const byRun = new Map<number, ChildRunForView[]>();
  for (const child of claude.children) {
    const view = childView(child, names);
    if (!view) continue;
    // Under the run that asked for its Task call; a child no call names goes under the first run.
    const at = child.toolUseId === null ? 0 : Math.max(0, main.asked.findIndex((ids) => ids.has(child.toolUseId!)));
    byRun.set(at, [...(byRun.get(at) ?? []), view]);
  }
  const session = chain(main, (run) => byRun.get(run) ?? []);
  return {
    session,
    runs: session ? runsIn(session) : 0,
    differing: session ? differingIn(session) : 0,
    notShown: claude.notCheckable.map((n) => `subagent of Task ${n.toolUseId}: ${n.reason}`),
  };
}
