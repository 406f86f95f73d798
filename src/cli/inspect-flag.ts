/**
 * `--inspect[=PORT]`, `--inspect-host ADDR`, `--inspect-keep` and `--inspect-paused` for the commands that run a
 * loop (run, simulate, resume, demo): start the live inspector, print its one URL, attach the run to it. A run that
 * ends before its page was opened (a short simulation, the demo) is served until the page has been opened, so the
 * URL printed is never a dead link; `--inspect-keep` serves the finished run until Ctrl-C; `--inspect-paused` holds
 * the run before its first step until the page steps or continues it.
 */
import type { RunObserverFactory } from '../runtime/query-options.ts';
import { startInspector, type Inspector } from '../inspector/inspector.ts';
import { UsageError, type CliIo } from './cli-io.ts';

export const INSPECT_FLAGS = {
  inspect: { type: 'boolean', default: false },
  'inspect-port': { type: 'string' },
  'inspect-host': { type: 'string' },
  'inspect-keep': { type: 'boolean', default: false },
  'inspect-paused': { type: 'boolean', default: false },
} as const;

export const INSPECT_HELP = `  --inspect[=PORT]    watch the run live in the browser (prints one URL; 127.0.0.1, a free port unless given)
  --inspect-host ADDR bind the inspector to ADDR instead of 127.0.0.1 (exposes it beyond this machine)
  --inspect-keep      keep the inspector serving after the run ends, until Ctrl-C (without it, a run that ends
                      before its page is opened is served until the page has been opened)
  --inspect-paused    start paused: the run waits at its first step until the page steps or continues it`;

/** `--inspect=PORT` → `--inspect --inspect-port PORT` (node's parseArgs has no optional values). */
export function expandInspectArgs(args: string[]): string[] {
  return args.flatMap((arg) => {
    const match = /^--inspect=(.*)$/.exec(arg);
    return match ? ['--inspect', '--inspect-port', match[1]!] : [arg];
  });
}

interface InspectValues {
  inspect?: boolean;
  'inspect-port'?: string;
  'inspect-host'?: string;
  'inspect-keep'?: boolean;
  'inspect-paused'?: boolean;
}

export interface CliInspector {
  inspector: Inspector;
  observers: RunObserverFactory[];
  forkObservers: RunObserverFactory[];
  /** After the run: with --inspect-keep, serve until Ctrl-C; else close. */
  finish(): Promise<void>;
}

export async function startCliInspector(values: InspectValues, io: CliIo, command: string): Promise<CliInspector | null> {
  const wanted = values.inspect === true || values['inspect-port'] !== undefined || values['inspect-host'] !== undefined || values['inspect-keep'] === true || values['inspect-paused'] === true;
  if (!wanted) return null;
  const portText = values['inspect-port'];
  const port = portText === undefined || portText === '' ? 0 : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--inspect expects a port from 0 to 65535, got '${portText}' (see turnloop ${command} --help)`);
  const keep = values['inspect-keep'] === true;
  let inspector: Inspector;
  try {
    inspector = await startInspector({ port, keep: true, ...(values['inspect-paused'] === true ? { startPaused: true } : {}), ...(values['inspect-host'] ? { host: values['inspect-host'] } : {}) });
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new UsageError(`--inspect: cannot listen on ${values['inspect-host'] ?? '127.0.0.1'}:${port} (${code ?? String(error)})`);
  }
  io.stderr.write(`inspector: ${inspector.url}${values['inspect-paused'] === true ? ' (paused at the first step: open it and press Step or Continue)' : ''}\n`);
  return {
    inspector,
    observers: [inspector.attach('main')],
    forkObservers: [inspector.attach('compaction')],
    async finish() {
      const interrupted = untilInterrupted();
      try {
        if (keep) {
          io.stderr.write(`inspector: still serving the finished run at ${inspector.url} (Ctrl-C to stop)\n`);
          await interrupted.promise;
        } else if (inspector.pagesSeen === 0) {
          // The run ended before anyone looked: the URL printed must still show it.
          io.stderr.write(`inspector: the run has ended; serving it at ${inspector.url} until the page is opened (Ctrl-C to stop)\n`);
          await Promise.race([inspector.whenPageOpened(), interrupted.promise]);
        }
      } finally {
        interrupted.dispose();
        await inspector.close();
      }
    },
  };
}

/** Ctrl-C as a promise, without leaving a listener behind once the wait is over. */
function untilInterrupted(): { promise: Promise<void>; dispose(): void } {
  let onSignal: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    onSignal = () => resolve();
    process.once('SIGINT', onSignal);
  });
  return { promise, dispose: () => process.removeListener('SIGINT', onSignal) };
}
