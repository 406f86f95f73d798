/**
 * `Bash`: runs a shell command in the root directory (Claude Code's Bash tool, same input shape). Invariants:
 * - the command runs in its own process group (spawned detached); on timeout or abort the whole group is killed
 *   (SIGKILL to `-pgid`), so a command's children die with it;
 * - the call settles when the command exits or is killed, never later: it does not wait for pipes that a stray
 *   grandchild may still hold open;
 * - output is capped (`maxOutputChars`): what floods past the cap is read and dropped, so the pipe never blocks
 *   the command and memory stays bounded.
 * - a command still running when this process exits (an SDK program's abort ends the executable with SIGTERM) has
 *   its group killed at exit, as the real executable kills its commands: nothing the agent started outlives it.
 * - the working directory persists between calls, as in Claude Code (its Bash keeps it; claude 2.1.334 does too):
 *   a call starts where the last successful one's shell ended (a command that exits non-zero moves nothing), unless
 *   that was outside the root and the allowed directories, where the next call starts in the root again and the
 *   result says so (claude's words). `workingDirectory()` says where the next call starts, so permission checks
 *   resolve its relative paths from there.
 * Never read-only (every call asks for permission unless a rule allows it); shell-like (an error cancels its
 * siblings, docs/loop.md §7.5).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool, type Tool } from '../define-tool.ts';
import { isInside } from './confine-path.ts';

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
export const BASH_MAX_OUTPUT_CHARS = 30_000;

const bashInput = z.strictObject({
  command: z.string().min(1).describe('The command to run (bash -c).'),
  timeout: z.number().int().positive().max(BASH_MAX_TIMEOUT_MS).optional().describe(`Timeout in ms (default ${BASH_DEFAULT_TIMEOUT_MS}, at most ${BASH_MAX_TIMEOUT_MS}).`),
  description: z.string().optional().describe('What the command does, in 5-10 words.'),
  run_in_background: z.boolean().optional().describe('Not supported by turnloop: the command runs in the foreground.'),
});

export interface BashToolOptions {
  root: string;
  defaultTimeoutMs?: number;
  maxOutputChars?: number;
  /** The shell; default `bash` (found on PATH). */
  shell?: string;
  /** Variables set for the command over this process's own (Claude Code's settings `env`). */
  env?: Readonly<Record<string, string>>;
  /** Directories besides the root a `cd` may leave the shell in (absolute; the session's added directories). */
  allowedDirectories?: readonly string[];
  /**
   * A shell that keeps no `cd` of its own: each call starts in the directory this returns (Claude Code's subagents:
   * their calls start where the main thread's shell is, and a `cd` lasts for that call only; claude 2.1.334, probed).
   */
  follow?: () => string;
}

/** The Bash tool with where its next call starts. */
export type BashTool = Tool<z.output<typeof bashInput>> & { workingDirectory(): string };

/** Whether a tool says where its shell's next call starts (the Bash tool does). */
export function hasWorkingDirectory(tool: object): tool is { workingDirectory(): string } {
  return typeof (tool as { workingDirectory?: unknown }).workingDirectory === 'function';
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Process groups of the commands running now; killed when the process exits (see `killRunningAtExit`). */
const runningGroups = new Set<number>();
/** The tools' folders for their shells' last directories; removed when the process exits. */
const stateDirs = new Set<string>();
let exitHookInstalled = false;

function killRunningAtExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const dir of stateDirs) rmSync(dir, { recursive: true, force: true });
    for (const pgid of runningGroups) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  });
}

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  truncated: number;
  timedOut: boolean;
  aborted: boolean;
}

function runCommand(args: string[], cwd: string, options: Required<Omit<BashToolOptions, 'follow'>>, timeoutMs: number, signal: AbortSignal): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.shell, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], ...(Object.keys(options.env).length > 0 ? { env: { ...process.env, ...options.env } } : {}) });
    const pgid = child.pid;
    if (pgid !== undefined) {
      killRunningAtExit();
      runningGroups.add(pgid);
    }
    let output = '';
    let truncated = 0;
    let timedOut = false;
    let aborted = false;
    let settled = false;
    const take = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      const room = options.maxOutputChars - output.length;
      if (room >= text.length) output += text;
      else {
        output += text.slice(0, Math.max(room, 0));
        truncated += text.length - Math.max(room, 0);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const finish = (code: number | null, exitSignal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      // Whatever is left of the group (a backgrounded grandchild) goes too; the pipes are not waited for.
      killGroup();
      if (pgid !== undefined) runningGroups.delete(pgid);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ code, signal: exitSignal, output, truncated, timedOut, aborted });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    child.once('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (pgid !== undefined) runningGroups.delete(pgid);
      reject(error);
    });
    child.once('exit', (code, exitSignal) => {
      // Let the pipes deliver what is already buffered, briefly; a held-open pipe does not delay the result.
      setTimeout(() => finish(code, exitSignal), 20);
    });
  });
}

/**
 * The shell's arguments: a script that runs `command` (its own argument, never pasted into the script) through
 * `eval` and then writes the directory the shell is in to `file`, only when the command succeeded and did not end
 * the shell itself (`exit`, even `exit 0`, keeps no `cd`: claude 2.1.334, probed).
 */
function recordingDirectory(command: string, file: string): string[] {
  const quoted = `'${file.replace(/'/g, "'\\''")}'`;
  const script = `__turnloop_command=$1; shift; eval "$__turnloop_command"\n__turnloop_status=$?; [ "$__turnloop_status" -ne 0 ] || pwd -P >| ${quoted}; exit "$__turnloop_status"`;
  return ['-c', script, 'bash', command];
}

export function createBashTool(options: BashToolOptions): BashTool {
  const resolved: Required<Omit<BashToolOptions, 'follow'>> = {
    root: options.root,
    allowedDirectories: options.allowedDirectories ?? [],
    defaultTimeoutMs: options.defaultTimeoutMs ?? BASH_DEFAULT_TIMEOUT_MS,
    maxOutputChars: options.maxOutputChars ?? BASH_MAX_OUTPUT_CHARS,
    shell: options.shell ?? 'bash',
    env: options.env ?? {},
  };
  const root = realOrSame(options.root);
  const allowed = [root, ...resolved.allowedDirectories.map(realOrSame)];
  let current = root;
  let stateDir: string | undefined;
  let calls = 0;
  const tool = defineTool({
    name: 'Bash',
    description: 'Runs a shell command in the workspace directory and returns its output (stdout and stderr) and exit code.',
    inputSchema: bashInput,
    isShellLike: true,
    interruptBehavior: 'cancel',
    async call({ command, timeout }, ctx) {
      const timeoutMs = timeout ?? resolved.defaultTimeoutMs;
      if (stateDir === undefined) {
        stateDir = mkdtempSync(join(tmpdir(), 'turnloop-bash-'));
        stateDirs.add(stateDir);
        killRunningAtExit();
      }
      if (options.follow) current = options.follow();
      // The directory the last call ended in may be gone since (removed by a later command): start in the root.
      if (!existsSync(current)) current = root;
      // One file per call: a background subagent's call may run beside the main thread's.
      const cwdFile = join(stateDir, `cwd-${(calls += 1)}`);
      const run = await runCommand(recordingDirectory(command, cwdFile), current, resolved, timeoutMs, ctx.signal);
      let ended: string | undefined;
      try {
        ended = readFileSync(cwdFile, 'utf8').trim();
        rmSync(cwdFile, { force: true });
      } catch {
        // Failed, ended by `exit` or killed: the directory stays where it was.
      }
      let reset = '';
      // As claude 2.1.334 (probed: `cd sub; false`): a command that failed leaves the shell where it was.
      if (run.code === 0 && !run.timedOut && !run.aborted && ended !== undefined && ended !== '') {
        if (allowed.some((dir) => isInside(dir, ended))) current = ended;
        else {
          current = root;
          reset = `\nShell cwd was reset to ${options.root}`;
        }
      }
      const tail = run.truncated > 0 ? `\n\n... [${run.truncated} characters of output truncated]` : '';
      const text = `${run.output.replace(/\n$/, '')}${tail}${reset}`;
      if (run.timedOut) return { content: `${text}\nCommand timed out after ${timeoutMs} ms (its process group was killed)`.trim(), isError: true };
      if (run.aborted) return { content: `${text}\nCommand was aborted (its process group was killed)`.trim(), isError: true };
      if (run.code !== 0) {
        const status = run.code === null ? `killed by ${run.signal}` : `Exit code ${run.code}`;
        return { content: `${status}\n${text}`.trim(), isError: true };
      }
      // No output: the runtime words an empty result for every tool alike (run-tool-use.ts), as claude does.
      return { content: text };
    },
  });
  return Object.assign(tool, { workingDirectory: () => (options.follow ? options.follow() : current) });
}
