/**
 * Reading a CLI input file (scenario, session log, transcript, key) with one clear error for every way it can be
 * wrong: missing, a directory or device, empty, too big, binary, not UTF-8 (with the offset of the first bad
 * byte, never silent U+FFFD), a line too long, JSON nested too deep for the code that walks it. Each is an
 * `InputFileError` (exit code 2) whose message names the file, the place and what was expected.
 *
 * A FIFO is accepted (a shell's `<(…)` is one) and read to its end; devices and sockets are not.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { firstInvalidUtf8Offset } from '../tools/builtin/utf8.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { shippedExampleHint } from './examples.ts';

/** Biggest input file read (a session log of a very long run is far below this). */
export const MAX_INPUT_BYTES = 512 * 1024 * 1024;
/** Longest line of a line-based input (JSON Lines). */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;
/** Deepest nesting of JSON accepted: the validators and hashers walk values recursively. */
export const MAX_JSON_DEPTH = 512;

/** A CLI file (input or output) that cannot be used: the message names the file and the problem; exit code 2. */
export class CliFileError extends TurnloopError {
  readonly exitCode = 2;
  constructor(
    override readonly code: 'INPUT_FILE' | 'OUTPUT_FILE',
    readonly file: string,
    readonly problem: string,
    message = `${file}: ${problem}`,
  ) {
    super(code, message);
    this.name = code === 'INPUT_FILE' ? 'InputFileError' : 'OutputFileError';
  }
}

export class InputFileError extends CliFileError {
  constructor(file: string, problem: string) {
    super('INPUT_FILE', file, problem);
  }
}

export interface ReadInputOptions {
  /** What the file should be, for messages: "a session log", "a scenario file". */
  expected: string;
  /** Check JSON nesting depth and line lengths for this kind of content. */
  format?: 'json' | 'jsonl' | 'text';
}

/** The path as shown in messages: relative to cwd when inside it. */
export function shownPath(file: string, cwd: string): string {
  const absolute = resolve(cwd, file);
  const rel = relative(cwd, absolute);
  return rel && !rel.startsWith('..') ? rel : absolute;
}

function readAll(path: string, shown: string, expected: string): Buffer {
  let fd: number;
  try {
    const stats = statSync(path);
    if (stats.isDirectory()) throw new InputFileError(shown, `is a directory; expected ${expected}`);
    if (!stats.isFile() && !stats.isFIFO()) throw new InputFileError(shown, `is a device or socket, not a file; expected ${expected}`);
    if (stats.size > MAX_INPUT_BYTES) throw new InputFileError(shown, `is ${stats.size} bytes; at most ${MAX_INPUT_BYTES} are read`);
    fd = openSync(path, 'r');
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputFileError(shown, code === 'ENOENT' ? `no such file${shippedExampleHint(shown)}` : code === 'EACCES' ? 'permission denied' : `cannot read it (${code ?? String(error)})`);
  }
  try {
    if (fstatSync(fd).isDirectory()) throw new InputFileError(shown, `is a directory; expected ${expected}`);
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.allocUnsafe(1024 * 1024);
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > MAX_INPUT_BYTES) throw new InputFileError(shown, `is larger than ${MAX_INPUT_BYTES} bytes; that is more than is read`);
      chunks.push(Buffer.from(chunk.subarray(0, n)));
    }
    return Buffer.concat(chunks, total);
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    throw new InputFileError(shown, `cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  } finally {
    closeSync(fd);
  }
}

/** 1-based line and column of a byte offset. */
function lineOf(bytes: Buffer, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = bytes.indexOf(10); i !== -1 && i < offset; i = bytes.indexOf(10, i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** The first place where JSON text nests deeper than `max` (strings skipped), or null. */
export function tooDeepAt(text: string, max = MAX_JSON_DEPTH): number | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) {
      if (++depth > max) return i;
    } else if (ch === 0x7d || ch === 0x5d) depth--;
    else if (ch === 0x0a) depth = 0;
  }
  return null;
}

/**
 * Reads `file` (relative to `cwd`) as text after every check of the module comment; throws `InputFileError`.
 *
 * @example
 * const text = readInputText('run.jsonl', io.cwd, { expected: 'a session log', format: 'jsonl' });
 */
export function readInputText(file: string, cwd: string, options: ReadInputOptions): string {
  const shown = shownPath(file, cwd);
  const bytes = readAll(resolve(cwd, file), shown, options.expected);
  if (bytes.length === 0 || bytes.every((b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09)) {
    throw new InputFileError(shown, `is empty; expected ${options.expected}`);
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    const at = lineOf(bytes, nul);
    throw new InputFileError(shown, `line ${at.line}: byte ${nul} is NUL, so this is a binary file; expected ${options.expected} (text)`);
  }
  const bad = firstInvalidUtf8Offset(bytes);
  if (bad !== -1) {
    const at = lineOf(bytes, bad);
    throw new InputFileError(shown, `line ${at.line}, column ${at.column}: byte ${bad} (0x${bytes[bad]!.toString(16).padStart(2, '0')}) is not valid UTF-8; expected ${options.expected} in UTF-8`);
  }
  if (options.format === 'jsonl' || options.format === 'json') {
    let line = 1;
    let start = 0;
    for (let i = bytes.indexOf(10); ; i = bytes.indexOf(10, i + 1)) {
      const end = i === -1 ? bytes.length : i;
      if (end - start > MAX_LINE_BYTES && options.format === 'jsonl') {
        throw new InputFileError(shown, `line ${line} is ${end - start} bytes long; at most ${MAX_LINE_BYTES} are accepted on one line`);
      }
      if (i === -1) break;
      line++;
      start = i + 1;
    }
  }
  const text = bytes.toString('utf8');
  if (options.format === 'json' || options.format === 'jsonl') {
    // JSON Lines reset the depth at every newline; plain JSON may span lines, so it is counted as one text.
    const deep = tooDeepAt(options.format === 'json' ? text.replace(/\n/g, ' ') : text);
    if (deep !== null) {
      const at = lineOf(bytes, Buffer.byteLength(text.slice(0, deep)));
      throw new InputFileError(shown, `line ${at.line}, column ${at.column}: JSON nested deeper than ${MAX_JSON_DEPTH} levels; expected ${options.expected}`);
    }
  }
  return text;
}
