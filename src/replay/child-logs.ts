/**
 * Session logs of a tree of runs (a parent and its subagents). Each child run is recorded as its own session log,
 * a sibling of its parent's: `run.jsonl`'s child for tool call `toolu_1` is `run.agents/toolu_1.jsonl`, and that
 * child's own children live in `run.agents/toolu_1.agents/`. The parent's log needs no change: the child's answer
 * is the parent's `tool_result` event for that id, so the parent replays alone, and each child replays alone.
 *
 * `replayTree` replays a parent and every child below it with zero model calls; a divergence names its path
 * (parent event, child run, child event), and a child whose final answer is not the result its parent recorded
 * for that call (another run's log in its place) is refused (`ChildAnswerMismatchError`).
 */
import { isBackgroundLaunchText, notifiedToolUseId } from '../agents/background-agents.ts';
import { finalTextOf } from '../tools/child-runs.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { ReplayDivergenceError } from './errors.ts';
import { replay, type ReplayOptions, type ReplayResult } from './replay.ts';
import { loadSessionLog } from './parse-session-log.ts';
import { childLogFiles } from './child-log-files.ts';

// Where the logs live and their recording (child-log-files.ts), for this module's importers.
export { childLogDir, childLogFiles, childLogPath, descendantLogFiles, recordChildrenBeside } from './child-log-files.ts';

/** A child run's divergence, with the path that leads to it. */
export class TreeReplayDivergenceError extends TurnloopError {
  constructor(
    /** From the root: for each generation, the parent's event that answered the call and the child's tool_use id. */
    readonly path: Array<{ parentEvent: number; toolUseId: string }>,
    /** The diverging child's log file. */
    readonly log: string,
    readonly divergence: ReplayDivergenceError,
  ) {
    const where = path.map((p) => `parent event ${p.parentEvent} → child run ${p.toolUseId}`).join(' → ');
    super('TREE_REPLAY_DIVERGENCE', `replay diverged in a child run: ${where} → child event ${divergence.index} (${divergence.diff}) [${log}]`);
    this.name = 'TreeReplayDivergenceError';
  }
}

export interface TreeReplayResult extends ReplayResult {
  log: string;
  /** One per child log beside this one, by tool_use id. */
  children: Map<string, TreeReplayResult>;
}

/** For each tool call `log` answered: the index of its first `tool_result` event. */
export function answeringEvents(log: string): Map<string, number> {
  return new Map([...recordedAnswers(log, { earlierTurns: false })].map(([id, answer]) => [id, answer.index]));
}

/** The text of a recorded tool_result block's content (a string, or its text blocks joined). */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.flatMap((block: { type?: unknown; text?: unknown }) => (block?.type === 'text' && typeof block.text === 'string' ? [block.text] : [])).join('\n');
}

/** A user message's tool_result blocks and its texts (a notification is text). */
function answersIn(content: unknown): Array<{ toolUseId: string; text: string }> {
  if (typeof content === 'string') {
    const id = notifiedToolUseId(content);
    return id === null ? [] : [{ toolUseId: id, text: content }];
  }
  if (!Array.isArray(content)) return [];
  return content.flatMap((block: { type?: unknown; tool_use_id?: unknown; content?: unknown; text?: unknown }) => {
    if (block?.type === 'tool_result' && typeof block.tool_use_id === 'string') return [{ toolUseId: block.tool_use_id, text: resultText(block.content) }];
    const id = block?.type === 'text' && typeof block.text === 'string' ? notifiedToolUseId(block.text) : null;
    return id === null ? [] : [{ toolUseId: id, text: block.text as string }];
  });
}

/**
 * For each tool call `log` answered: its first `tool_result` event's index and the result's text. A background
 * agent's report is the notification its parent was sent, not the call's (launch) result: collected as an
 * attachment (a `query()` run), or in the conversation the run started from (an SDK session's notification turn,
 * index 0). With `earlierTurns`, answers in that conversation count too (a later turn's log holds the earlier turns
 * there, and their children beside it).
 */
function recordedAnswers(log: string, options: { earlierTurns: boolean }): Map<string, { index: number; text: string }> {
  const answered = new Map<string, { index: number; text: string }>();
  const parsed = loadSessionLog(log);
  const keep = (toolUseId: string, index: number, text: string) => {
    if (!isBackgroundLaunchText(text)) answered.set(toolUseId, { index, text });
  };
  for (const message of options.earlierTurns ? (parsed.header.params.messages ?? []) : []) {
    if (message.type === 'user') for (const { toolUseId, text } of answersIn(message.message.content)) keep(toolUseId, 0, text);
  }
  for (const { event, index } of parsed.events) {
    if (event.type === 'attachments_collected') {
      for (const message of event.attachments) {
        const text = message.type === 'user' ? resultText(message.message.content) : '';
        const id = notifiedToolUseId(text);
        if (id !== null) answered.set(id, { index, text });
      }
    }
    if (event.type !== 'tool_result' || answered.has(event.toolUseId)) continue;
    const content = event.message.message.content;
    const block = Array.isArray(content) ? content.find((b) => b.type === 'tool_result' && (b as { tool_use_id?: string }).tool_use_id === event.toolUseId) : undefined;
    keep(event.toolUseId, index, block ? resultText((block as { content?: unknown }).content) : typeof content === 'string' ? content : '');
  }
  return answered;
}

/**
 * A child log whose final answer is not the result its parent recorded for that call: the log of another run (or of
 * another call of this one) put in its place. CLI exit 2.
 */
export class ChildAnswerMismatchError extends TurnloopError {
  readonly exitCode = 2;
  constructor(
    readonly log: string,
    readonly toolUseId: string,
    readonly parentEvent: number,
  ) {
    super('CHILD_ANSWER_MISMATCH', `${log}: this child run's final answer is not the result its parent recorded for ${toolUseId} (parent event ${parentEvent}): the log belongs to another run or another call`);
  }
}

/**
 * Replays `log` and every child log below it (hashes verified, no model calls).
 *
 * @example
 * const tree = replayTree('run.jsonl');
 * tree.children.get('toolu_1')?.terminal // the subagent's ending
 */
export function replayTree(log: string, options: ReplayOptions = {}, path: Array<{ parentEvent: number; toolUseId: string }> = []): TreeReplayResult {
  let result: ReplayResult;
  try {
    result = replay(log, options);
  } catch (error) {
    if (error instanceof ReplayDivergenceError && path.length > 0) throw new TreeReplayDivergenceError(path, log, error);
    throw error;
  }
  return { ...result, log, children: replayChildren(log, options, path) };
}

/** Replays every child log below `log` (not `log` itself: a caller that already replayed it, from bytes it checked). */
export function replayChildren(log: string, options: ReplayOptions = {}, path: Array<{ parentEvent: number; toolUseId: string }> = []): Map<string, TreeReplayResult> {
  const children = new Map<string, TreeReplayResult>();
  const files = childLogFiles(log);
  // The parent's log is read once for all its children (not once per child).
  const answered = files.length > 0 ? recordedAnswers(log, { earlierTurns: true }) : new Map<string, { index: number; text: string }>();
  for (const { toolUseId, file } of files) {
    const answer = answered.get(toolUseId);
    const step = { parentEvent: answer?.index ?? -1, toolUseId };
    const child = replayTree(file, options, [...path, step]);
    // The child's answer is what its parent was told (the agent tool's result holds the final text, whole or
    // after a note that the run did not complete); a parent that never answered (a crash) has nothing to compare.
    const finalText = finalTextOf(child.emitted);
    if (answer && finalText !== null && !answer.text.includes(finalText)) throw new ChildAnswerMismatchError(file, toolUseId, answer.index);
    children.set(toolUseId, child);
  }
  return children;
}
