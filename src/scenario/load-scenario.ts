/**
 * Reads and validates a scenario file. Every problem (unreadable, not JSON, wrong type, unknown key) becomes a
 * `ScenarioFileError`: one message naming the file, the path inside it and what was expected; exit code 2.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describeIssue } from './describe-issue.ts';
import { scenarioSchema, type Scenario } from './scenario-schema.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { messageOf } from '../errors/message-of.ts';

/** How many problems after the first one a message names. */
const SHOWN_OTHERS = 3;

export class ScenarioFileError extends TurnloopError {
  /** The CLI's exit code for bad input. */
  readonly exitCode = 2;
  constructor(
    readonly file: string,
    /** Path inside the file (`params.messages[0].role`), or null for problems with the whole file. */
    readonly path: string | null,
    readonly expected: string,
    /** Further problems after the first one. */
    readonly moreIssues = 0,
    /** Those problems, described; the message names the first few of them. */
    readonly others: ReadonlyArray<{ path: string | null; expected: string }> = [],
  ) {
    const listed = others.slice(0, SHOWN_OTHERS).map((o) => `${o.path === null ? '' : `${o.path}: `}${o.expected}`);
    const unnamed = moreIssues - listed.length;
    if (unnamed > 0) listed.push(`${unnamed} more (simulate --json lists every problem)`);
    const more = moreIssues > 0 ? ` (and ${moreIssues} more problem${moreIssues > 1 ? 's' : ''}: ${listed.join('; ')})` : '';
    super('INVALID_SCENARIO', `${file}: ${path === null ? '' : `${path}: `}${expected}${more}`);
    this.name = 'ScenarioFileError';
  }
}

/** Line and column (1-based) of a character offset. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** Parses JSON text; a syntax error names the line and column. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const message = messageOf(error);
    const position = /position (\d+)/.exec(message);
    const where = position ? lineAndColumn(text, Number(position[1])) : null;
    const detail = message.replace(/\s*in JSON at position \d+.*$/s, '').replace(/, ".*" is not valid JSON$/s, '');
    throw new ScenarioFileError(file, null, `not valid JSON${where ? ` (line ${where.line}, column ${where.column})` : ''}: ${detail}`);
  }
}

/** Validates parsed JSON as a scenario; `file` is only used in messages. */
export function parseScenario(data: unknown, file: string): Scenario {
  const result = scenarioSchema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  const [first, ...rest] = result.error.issues;
  const { path, expected } = describeIssue(first, scenarioSchema, data);
  const others = rest.slice(0, SHOWN_OTHERS).map((issue) => describeIssue(issue, scenarioSchema, data));
  throw new ScenarioFileError(file, path, expected, rest.length, others);
}

/**
 * @example
 * const scenario = loadScenario('examples/scenarios/completed.json', process.cwd());
 */
export function loadScenario(file: string, cwd: string): Scenario {
  const path = resolve(cwd, file);
  const fromCwd = relative(cwd, path);
  const shown = fromCwd && !fromCwd.startsWith('..') ? fromCwd : path;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new ScenarioFileError(shown, null, code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, expected a scenario file' : `cannot read it (${code ?? String(error)})`);
  }
  return parseScenario(parseJsonText(text, shown), shown);
}
