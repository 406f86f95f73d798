/**
 * Reading a tree of session logs for the viewer: a parent log and, recursively, the logs of the subagent runs it
 * started, recorded beside it (`run.agents/<toolUseId>.jsonl`, see `src/replay/child-logs.ts`). Each file is an
 * ordinary session log, read by `parseSessionLog`; a child the parent's log never mentions is still shown (the
 * viewer puts it after the parent's last step). Reads files; otherwise pure.
 */
import { readFileSync } from 'node:fs';
import { childLogFiles } from '../replay/child-logs.ts';
import { parseSessionLog, type ChildRunForView, type SessionForView } from './session.ts';
import { SessionLogParseError } from '../replay/errors.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

/** A log of the tree that cannot be read as a session log; the message names the file. */
export class TreeLogError extends TurnloopError {
  constructor(
    readonly file: string,
    readonly reason: string,
    /** The line of the file, when the log could be read up to it. */
    readonly line?: number,
  ) {
    super('BAD_TREE_LOG', `${file}${line === undefined ? '' : `:${line}`}: ${reason}`);
    this.name = 'TreeLogError';
  }
}

/** Reads one log file of the tree (the CLI passes its own, with its input checks and warnings). */
export type LoadLog = (file: string) => SessionForView;

const loadFile: LoadLog = (file) => {
  const text = readFileSync(file, 'utf8');
  try {
    return parseSessionLog(text, file);
  } catch (error) {
    if (error instanceof SessionLogParseError) throw new TreeLogError(file, error.expected, error.line);
    throw new TreeLogError(file, (error as Error).message);
  }
};

/** The agent's name from a child's `querySource` (`agent:<name>`). */
function agentOf(session: SessionForView): string | null {
  const source = session.params.querySource;
  return typeof source === 'string' && source.startsWith('agent:') ? source.slice('agent:'.length) : null;
}

/** The child runs recorded beside `logPath`, each with its own children, in file-name order. */
export function childRunsOf(logPath: string, load: LoadLog = loadFile): ChildRunForView[] {
  return childLogFiles(logPath).map(({ toolUseId, file }) => {
    const session = load(file);
    return { toolUseId, agent: agentOf(session), session: withChildRuns(session, file, load) };
  });
}

/** `session` (read from `logPath`) with its subagent runs attached, when it has any. */
export function withChildRuns(session: SessionForView, logPath: string, load: LoadLog = loadFile): SessionForView {
  const children = childRunsOf(logPath, load);
  return children.length > 0 ? { ...session, children } : session;
}

/**
 * Reads a log and every subagent log below it.
 *
 * @example
 * const tree = loadSessionTree('run.jsonl');
 * tree.children?.map((c) => c.agent); // ['Explore', 'Review']
 */
export function loadSessionTree(logPath: string, load: LoadLog = loadFile): SessionForView {
  return withChildRuns(load(logPath), logPath, load);
}
