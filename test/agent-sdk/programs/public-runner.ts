/**
 * How the suite runs a program written the way people write Agent SDK programs (issue #38, "tried as a new user
 * would"): the program imports `query` from the SDK itself, consumes the messages its own way and prints what it
 * cares about. The only thing the suite hands it is the engine (`engine`: the executable, its offline env, the
 * model and the working directory, which a user's program would leave to their defaults), a `print` in place of
 * `console.log`, and the suite's watchdog signal. What the suite compares across engines: the printed lines, what
 * `main` returned (or threw), and the files left in the working directory.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import type { Options } from '@anthropic-ai/claude-agent-sdk';
import type { RunDirs } from '../harness/engines.ts';
import type { FakeScriptInput } from '../harness/fake-api.ts';
import type { SdkProgram } from '../harness/sdk-program.ts';

export interface PublicIo {
  /** The engine's options: spread first into the program's own (the one change a user makes for turnloop). */
  engine: Options;
  cwd: string;
  print: (line: string) => void;
  /** The suite's watchdog: a program with its own AbortController follows it. */
  signal: AbortSignal;
}

export interface PublicProgram {
  name: string;
  /** The files of the user's project before the program runs (relative paths), e.g. a skill, a CLAUDE.md. */
  project?(dirs: RunDirs): Record<string, string>;
  script(dirs: RunDirs): FakeScriptInput;
  main(io: PublicIo): Promise<unknown>;
}

/** The files under `dir` (relative path → content), without the project files the program started with. */
export function filesWritten(dir: string, before: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const rel = relative(dir, path);
        const content = readFileSync(path, 'utf8');
        if (before[rel] !== content) out[rel] = content;
      }
    }
  };
  walk(dir);
  return out;
}

/** Writes the project's files (relative to `cwd`, or absolute) and returns those under `cwd`, as `filesWritten` keys them. */
function writeProject(cwd: string, files: Record<string, string>): Record<string, string> {
  const under: Record<string, string> = {};
  for (const [path, content] of Object.entries(files)) {
    const at = isAbsolute(path) ? path : join(cwd, path);
    mkdirSync(dirname(at), { recursive: true });
    writeFileSync(at, content);
    if (!isAbsolute(path)) under[path] = content;
  }
  return under;
}

/** A public program as a program of the harness (harness/sdk-program.ts): `observed` holds printed, returned, files. */
export function asSdkProgram(program: PublicProgram): SdkProgram {
  return {
    name: program.name,
    script: (dirs) => program.script(dirs),
    async run({ options: engineOptions, dirs, observed }) {
      // As their users run them: turnloop named by pathToClaudeCodeExecutable alone, so turnloop starts the plain
      // way (no start-up snapshot, which only agentSdkOptions() and the rest of the suite pass).
      const { executableArgs: _snapshot, ...options } = engineOptions;
      const before = writeProject(dirs.cwd, program.project?.(dirs) ?? {});
      const printed: string[] = [];
      observed.printed = printed;
      const signal = options.abortController?.signal ?? new AbortController().signal;
      try {
        observed.returned = await program.main({ engine: options, cwd: dirs.cwd, print: (line) => printed.push(line), signal });
      } catch (thrown) {
        observed.threw = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
      }
      observed.files = filesWritten(dirs.cwd, before);
    },
  };
}
