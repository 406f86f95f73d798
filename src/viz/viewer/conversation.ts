/**
 * The session as a person reads it: prompts, answers, tool calls and their results, compactions, errors, each
 * subagent as one entry, each run's ending, in the order they happened, every entry tied to the step of the run
 * that produced it (so selecting an entry shows that step in the chart and the state diff, and stepping marks
 * the entry of the step shown). Built from what the engine emitted when it folded the runs (`SessionModel`),
 * plus each run's starting history. Pure; no DOM.
 */
import type { ViewMessage } from '../frames.ts';
import { viewMessage } from '../frames.ts';
import type { RunNode, RunTree } from './run-tree.ts';
import { typedPrompt } from '../../claude/prompt-text.ts';

export type EntryKind = 'prompt' | 'answer' | 'thinking' | 'tool' | 'result' | 'error' | 'compact' | 'note' | 'subagent' | 'run' | 'end';

export interface ConversationEntry {
  kind: EntryKind;
  /** The run and its step the entry belongs to (a subagent's entry: the child run, step 0). */
  run: RunNode;
  step: number;
  /** Who speaks, in a word: `you`, `model`, `tool`, `turnloop`… */
  who: string;
  text: string;
}

/** What kind of entry a message is; `history`: it was in the run's starting history, not emitted by a step. */
export function entryKind(message: ViewMessage, history: boolean): EntryKind {
  const tags = message.tag.split(', ');
  if (message.type === 'user') {
    if (tags.includes('tool_result')) return message.text.startsWith('(error) ') ? 'error' : 'result';
    if (tags.includes('meta')) return 'note';
    return history || message.text.startsWith('[Request interrupted') ? 'prompt' : 'note';
  }
  if (message.type === 'assistant') {
    if (tags.some((t) => t.startsWith('api_error'))) return 'error';
    if (tags.includes('tool_use')) return 'tool';
    if (tags.includes('thinking') && !message.text.replace(/^\(thinking\)[^\n]*/, '').trim()) return 'thinking';
    return 'answer';
  }
  if (message.type === 'system') return message.tag === 'compact_boundary' ? 'compact' : /error|api/.test(message.tag) ? 'error' : 'note';
  return 'note';
}

const WHO: Record<EntryKind, string> = {
  prompt: 'you',
  answer: 'model',
  thinking: 'model (thinking)',
  tool: 'tool call',
  result: 'tool result',
  error: 'error',
  compact: 'compaction',
  note: 'turnloop',
  subagent: 'subagent',
  run: 'run',
  end: 'ending',
};

function entry(kind: EntryKind, run: RunNode, step: number, text: string): ConversationEntry {
  return { kind, run, step, who: WHO[kind], text };
}

/** The prompt that started a later run: the user messages at the end of its history (after the last reply). */
function promptOf(run: RunNode): ViewMessage[] {
  const messages = run.model.params.messages;
  let start = messages.length;
  while (start > 0 && messages[start - 1]!.type === 'user') start--;
  return messages.slice(start).map((m) => viewMessage(m));
}

function subagentText(child: RunNode): string {
  const task = child.model.params.messages.find((m) => m.type === 'user');
  const taskText = task ? viewMessage(task).text : '';
  const terminal = child.model.terminal ?? 'unfinished';
  const mark = child.check && !child.check.ok ? ' ✗ engine ≠ recording' : '';
  return `${child.label}: ${child.model.length - 1} steps, ${terminal}${mark}${taskText ? `\n${taskText}` : ''}`;
}

function endText(run: RunNode): string {
  const terminal = run.model.terminal;
  const engine = terminal ?? 'unfinished (the log stops before the run ended)';
  if (!run.check) return engine;
  return run.check.ok ? `${engine} (as recorded)` : `${engine}; recorded: ${run.check.ending.recorded} ✗ ${run.check.notes.join('; ')}`;
}

/** A compaction's entry from its result event: how many tokens it compacted and the summary the conversation goes on from. */
function compactionEntries(run: RunNode, fromStep: number): ConversationEntry[] {
  const out: ConversationEntry[] = [];
  const { entries, events } = run.model;
  for (let step = Math.max(1, fromStep); step < entries.length; step++) {
    const type = entries[step]!.type;
    if (type !== 'autocompact_result' && type !== 'reactive_compact_result') continue;
    const event = events[step - 1]!;
    if (event.type !== 'autocompact_result' && event.type !== 'reactive_compact_result') continue;
    const what = type === 'autocompact_result' ? 'automatic compaction' : 'reactive compaction (the prompt was too long)';
    if (!event.ok) {
      out.push(entry('error', run, step, `${what} failed${event.error ? `: ${event.error}` : ''}`));
      continue;
    }
    const summary = (event.postCompactMessages ?? []).filter((m) => m.type === 'user').map((m) => viewMessage(m).text).join('\n');
    const before = event.preCompactTokens === undefined ? '' : ` of ${event.preCompactTokens.toLocaleString('en-US')} tokens`;
    out.push(entry('compact', run, step, `${what}${before}: the conversation goes on from its summary${summary ? `\n${summary}` : ''}`));
  }
  return out;
}

/**
 * The entries of one run, from its emitted message `from` on (a live run grows: its later entries are appended).
 * `history`: also list the run's starting history (the root's) or its prompt (a later run's), before step 0.
 */
export function runEntries(tree: RunTree, run: RunNode, from = 0, history = true): ConversationEntry[] {
  const out: ConversationEntry[] = [];
  if (history && from === 0) {
    if (run.kind === 'run') out.push(entry('run', run, 0, `${run.label}${run.check && !run.check.ok ? ' ✗ engine ≠ recording' : ''}`));
    const start = run.depth === 0 ? run.model.params.messages.map((m) => viewMessage(m)) : promptOf(run);
    for (const m of start) {
      const kind = entryKind(m, true);
      // A slash command reads as typed; a local command's output is not something the person said.
      const typed = kind === 'prompt' ? typedPrompt(m.text) : m.text;
      out.push(entry(typed === null ? 'note' : kind, run, 0, typed ?? m.text));
    }
  }
  // Subagents go right after the step that asked for their tool call (a live run, appended to, has none).
  const children = from === 0 ? run.children.filter((c) => c.kind === 'subagent').sort((a, b) => tree.anchorOf(a) - tree.anchorOf(b)) : [];
  let c = 0;
  const childrenUpTo = (step: number) => {
    for (; c < children.length && tree.anchorOf(children[c]!) < step; c++) out.push(entry('subagent', children[c]!, 0, subagentText(children[c]!)));
  };
  const emitted = run.model.emitted;
  // Compactions are events, not emitted messages: merged in by step.
  const compactions = compactionEntries(run, from === 0 ? 0 : (emitted[from - 1]?.step ?? 0) + 1);
  let k = 0;
  const compactionsUpTo = (step: number) => {
    for (; k < compactions.length && compactions[k]!.step <= step; k++) out.push(compactions[k]!);
  };
  for (let i = from; i < emitted.length; i++) {
    const { step, message } = emitted[i]!;
    childrenUpTo(step);
    compactionsUpTo(step);
    if (message.text.trim() === '') continue; // an empty text block says nothing to a reader
    out.push(entry(entryKind(message, false), run, step, message.text));
  }
  childrenUpTo(Number.POSITIVE_INFINITY);
  compactionsUpTo(Number.POSITIVE_INFINITY);
  if (run.model.terminal !== null || run.check) out.push(entry('end', run, run.model.length - 1, endText(run)));
  return out;
}

/** The whole conversation: the root run, then each later run of the main thread, in order. */
export function conversationOf(tree: RunTree): ConversationEntry[] {
  return [tree.root, ...tree.root.children.filter((c) => c.kind === 'run')].flatMap((run) => runEntries(tree, run));
}

/** Finds, for a run's step, the entry to mark: the last entry of that run at or before the step. */
export class EntryIndex {
  private readonly byRun = new Map<RunNode, { steps: number[]; indexes: number[] }>();

  constructor(entries: readonly ConversationEntry[]) {
    this.add(entries, 0);
  }

  /** Indexes entries appended at `offset` onwards (steps of a run only grow). */
  add(entries: readonly ConversationEntry[], offset: number): void {
    entries.forEach((e, i) => {
      let list = this.byRun.get(e.run);
      if (!list) this.byRun.set(e.run, (list = { steps: [], indexes: [] }));
      list.steps.push(e.step);
      list.indexes.push(offset + i);
    });
  }

  /** The entry of `run` at or before `step` (binary search), or -1 when the run has none yet. */
  at(run: RunNode, step: number): number {
    const list = this.byRun.get(run);
    if (!list) return -1;
    let lo = 0;
    let hi = list.steps.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list.steps[mid]! <= step) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found === -1 ? list.indexes[0]! : list.indexes[found]!;
  }
}
