/**
 * One error base: every error class in src/ extends `TurnloopError` and has its own stable SCREAMING_SNAKE `code`.
 * The classes are found by reading the sources, so a new class without a base or a code fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { isTurnloopError, TurnloopError } from '../../src/index.ts';
import { asError, ERROR_CODES, type TurnloopErrorCode } from '../../src/errors/turnloop-error.ts';

const SRC = join(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every exported class of src/ that extends an error class, by its defining file. */
const ERROR_CLASSES = sourceFiles(SRC).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/^export (abstract )?class (\w+) extends (\w+)/gm)]
    .filter((match) => /Error$/.test(match[3]!) && match[2] !== 'TurnloopError')
    .map((match) => ({ file, name: match[2]!, abstract: match[1] !== undefined })),
);

const fingerprint = { machine: 'm', engineVersion: 'e', tools: 't', codeVersion: 'c' };
const digest = { v: 'sampling' };
/** Arguments that build one instance of each concrete class (a new class needs a row: the test says which). */
const SAMPLE_ARGS: Record<string, unknown[]> = {
  IncompleteStreamError: [],
  McpServerNameError: ['__proto__', 'servers.json'],
  SessionInUseError: ['session s is in use by process 42'],
  SessionStoreOutsideError: ['/w/.turnloop', 'it is a symbolic link'],
  PermissionUpdateError: ['[0].destination: expected one of userSettings, projectSettings, localSettings, session, cliArg'],
  SettingsOutsideProjectError: ['/w/.claude', 'it is a symbolic link'],
  WitnessTooLargeError: ['the bound is 200,000 main-loop model calls'],
  DuplicateToolUseError: ['toolu_1'],
  DuplicateToolNameError: ['Read'],
  ToolCancellation: ['timeout', 'timed out'],
  StoreOutsideWorkspaceError: ['/x', 'outside'],
  InvalidEventError: [[{ path: 'type', message: 'unknown' }]],
  PostgresNotFoundError: [],
  ExecutorIdTakenError: ['worker-1', 'adopted'],
  UnknownEventError: ['bogus', ['model_done']],
  InvalidBaseUrlError: ['localhost:9', 'ANTHROPIC_BASE_URL', 'it has no scheme'],
  DbosUnavailableError: [],
  OtlpConfigError: ['OTEL_EXPORTER_OTLP_ENDPOINT', 'not a URL'],
  ScenarioFileError: ['s.json', null, 'an object'],
  JournalDivergenceError: [0, 'a', 'b'],
  JournalExhaustedError: [3],
  DurableCodeChangedError: [fingerprint, { ...fingerprint, tools: 'u' }],
  UsageError: ['bad flag'],
  CliFileError: ['INPUT_FILE', 'f', 'missing'],
  InputFileError: ['f', 'missing'],
  OutputFileError: ['f', 'no directory'],
  TreeReplayDivergenceError: [[], 'log.jsonl', { index: 1, diff: 'd' }],
  IndexOutOfRangeError: [9, 3],
  SignatureError: ['bad signature'],
  ChildAnswerMismatchError: ['run.agents/toolu_1.jsonl', 'toolu_1', 7],
  LogLockedError: ['/tmp/run.jsonl', { pid: 42, host: 'h', since: '2026-12-03T00:00:00Z' }],
  SessionLogParseError: ['log.jsonl', 2, 'JSON'],
  TranscriptFormatError: ['t.jsonl', 2, 'JSON'],
  SessionLogExistsError: ['log.jsonl'],
  ReplayDivergenceError: [1, { hash: 'a', at: digest }, { hash: 'b', at: digest }, 'd'],
  MachineVersionMismatchError: ['a', 'b', '0.1.0'],
  ChildRunNotFoundError: [['toolu_1'], 'log.jsonl', []],
  UnknownDiagramError: ['x', ['overview']],
  TreeLogError: ['log.jsonl', 'missing'],
  InspectorUnavailableError: [],
  ViewerBundleMissingError: ['dist/viewer.js'],
  ViewerInputError: ['undefined'],
  MissingGeneratedBlockError: ['chart'],
  InlineFunctionError: ['states.a'],
  MemoPreconditionError: [['back: a history state']],
  PathOutsideRootError: ['../x'],
  PathNotFoundError: ['x'],
  UnsafePatternError: ['(a*)*', 'nested quantifier'],
  NotRegularFileError: ['x', 'a directory'],
  McpConnectError: ['srv', 'refused'],
  McpConfigError: ['mcp.json', ['servers: missing']],
  FakeScriptError: [[{ path: 'answers', message: 'missing' }]],
  ConfigError: ['config.limits.x', 'not a config key'],
  UnknownQueryOptionError: ['maxTurn'],
  ControlRequestError: ['can_use_tool', 'stdin was closed'],
  HeadlessArgsError: ['--max-turns expects a positive integer'],
  SessionNotFoundError: ['--resume: no session x'],
};

async function classOf(entry: { file: string; name: string }): Promise<new (...args: unknown[]) => Error> {
  const module = (await import(entry.file)) as Record<string, new (...args: unknown[]) => Error>;
  return module[entry.name]!;
}

describe('one error base', () => {
  it('finds the error classes in the sources', () => {
    expect(ERROR_CLASSES.length).toBeGreaterThanOrEqual(38);
  });

  it('no class in src/ extends Error directly, except TurnloopError itself', () => {
    const direct = sourceFiles(SRC)
      .filter((file) => /class \w+ extends Error\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(direct).toEqual(['errors/turnloop-error.ts']);
  });

  it('every error class extends TurnloopError and has a unique SCREAMING_SNAKE code', async () => {
    const codes = new Map<string, string>();
    for (const entry of ERROR_CLASSES) {
      const ErrorClass = await classOf(entry);
      expect(ErrorClass.prototype, entry.name).toBeInstanceOf(TurnloopError);
      if (entry.abstract) continue;
      expect(SAMPLE_ARGS, `add a SAMPLE_ARGS row for ${entry.name}`).toHaveProperty(entry.name);
      const error = new ErrorClass(...SAMPLE_ARGS[entry.name]!) as TurnloopError;
      expect(isTurnloopError(error)).toBe(true);
      expect(error.name).toBe(entry.name === 'CliFileError' ? 'InputFileError' : entry.name);
      expect(error.code, entry.name).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(ERROR_CODES, `${entry.name}'s code`).toContain(error.code);
      expect(error.message.length).toBeGreaterThan(0);
      // CliFileError is the shared base of InputFileError and OutputFileError, whose codes it carries.
      if (entry.name !== 'CliFileError') {
        expect(codes.get(error.code), `${entry.name} and ${codes.get(error.code)} share ${error.code}`).toBeUndefined();
        codes.set(error.code, entry.name);
      }
    }
    expect(codes.size).toBe(ERROR_CLASSES.filter((entry) => !entry.abstract).length - 1);
  });

  it('isTurnloopError is false for other errors and non-errors', () => {
    expect(isTurnloopError(new Error('x'))).toBe(false);
    expect(isTurnloopError({ code: 'USAGE' })).toBe(false);
    expect(isTurnloopError(null)).toBe(false);
  });

  it('makes no Error in src/ outside the error base: no new Error( nor a built-in error constructor', () => {
    const made = sourceFiles(SRC)
      .filter((file) => !relative(SRC, file).startsWith('errors/'))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) => (/\bnew (Type|Range|Syntax|Eval|URI|Aggregate)?Error\(/.test(line) ? [`${relative(SRC, file)}:${i + 1}`] : [])),
      );
    expect(made).toEqual([]);
  });

  it('the scan sees a new Error( where there is one (the one in the base)', () => {
    expect(readFileSync(join(SRC, 'errors/turnloop-error.ts'), 'utf8')).toMatch(/\bnew TurnloopError\(/);
    expect(/\bnew (Type|Range|Syntax|Eval|URI|Aggregate)?Error\(/.test("throw new RangeError('x')")).toBe(true);
  });

  it('codes are a union type, and every code of the list is thrown somewhere in src/', () => {
    expectTypeOf<TurnloopError['code']>().toEqualTypeOf<TurnloopErrorCode>();
    // @ts-expect-error a code that is not in ERROR_CODES does not compile
    expect(new TurnloopError('NOT_A_CODE', 'x').code).toBe('NOT_A_CODE');
    const sources = sourceFiles(SRC)
      .filter((file) => !file.endsWith('errors/error-codes.ts'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    expect(ERROR_CODES.filter((code) => !sources.includes(`'${code}'`))).toEqual([]);
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });

  it('asError keeps an Error and wraps anything else as NON_ERROR_THROWN', () => {
    const error = new TypeError('t');
    expect(asError(error)).toBe(error);
    const wrapped = asError('plain text');
    expect(isTurnloopError(wrapped) && wrapped.code).toBe('NON_ERROR_THROWN');
    expect(wrapped.message).toBe('plain text');
  });
});
