/**
 * Drives `turnloop` in its headless mode in-process (`main(argv, io)`), speaking JSON lines on stdin and stdout
 * as the Agent SDK does, with no SDK: a test scripts what the "program" answers to each message we write.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../../src/cli/main.ts';
import type { FakeScriptInput } from '../../../src/fake-api/index.ts';

export type Line = Record<string, any>;

export interface HeadlessRun {
  code: number;
  lines: Line[];
  stderr: string;
  cwd: string;
}

export interface Program {
  /** Lines written before anything else (default: `initialize`, then one user message `prompt`). */
  opening?: Line[];
  /** Called for every line turnloop writes; return lines to send back. */
  onLine?: (line: Line, send: (reply: Line) => void, closeInput: () => void) => void;
  /** Results to wait for before closing stdin (default 1). */
  results?: number;
  /** The process environment turnloop sees (default: none). */
  env?: Record<string, string>;
}

export function tempProject(): string {
  return mkdtempSync(join(tmpdir(), 'turnloop-sdk-'));
}

export function writeScript(cwd: string, script: FakeScriptInput, name = 'script.json'): string {
  const path = join(cwd, name);
  writeFileSync(path, JSON.stringify(script));
  return path;
}

export const SDK_ARGS = ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json'];

export function initialize(extra: Line = {}): Line {
  return { type: 'control_request', request_id: 'init-1', request: { subtype: 'initialize', ...extra } };
}

export function userLine(content: unknown): Line {
  return { type: 'user', message: { role: 'user', content }, parent_tool_use_id: null };
}

export async function runHeadless(argv: string[], program: Program & { prompt?: string; cwd?: string; env?: Record<string, string> } = {}): Promise<HeadlessRun> {
  const cwd = program.cwd ?? tempProject();
  const stdin = new PassThrough();
  const lines: Line[] = [];
  const err: string[] = [];
  let buffer = '';
  let results = 0;
  const wanted = program.results ?? 1;
  const send = (reply: Line) => stdin.write(`${JSON.stringify(reply)}\n`);
  const io = {
    stdout: {
      write: (text: string) => {
        buffer += text;
        let at;
        while ((at = buffer.indexOf('\n')) !== -1) {
          const raw = buffer.slice(0, at);
          buffer = buffer.slice(at + 1);
          if (raw.trim() === '') continue;
          const line = JSON.parse(raw) as Line;
          lines.push(line);
          program.onLine?.(line, send, () => stdin.end());
          if (line.type === 'result' && ++results >= wanted) stdin.end();
        }
        return true;
      },
    },
    stderr: { write: (text: string) => err.push(text) },
    env: program.env ?? {},
    cwd,
    stdin,
  };
  for (const line of program.opening ?? [initialize(), userLine(program.prompt ?? 'hello')]) send(line);
  if (!argv.some((a) => a.startsWith('--input-format'))) stdin.end();
  const code = await main(argv, io);
  return { code, lines, stderr: err.join(''), cwd };
}

export const types = (lines: Line[]) => lines.map((l) => (l.subtype && l.type !== 'result' ? `${l.type}/${l.subtype}` : l.type));
