/**
 * `--inspect[=PORT]`, `--inspect-host ADDR` and `--inspect-keep` for the commands that run a loop (run, simulate,
 * resume, demo): start the live inspector, print its one URL, attach the run to it, and, with `--inspect-keep`,
 * keep serving the finished run until Ctrl-C.
 */
import type { RunObserverFactory } from '../effects/query-options.ts';
import { startInspector, type Inspector } from '../inspector/inspector.ts';
import { UsageError, type CliIo } from './cli-io.ts';

export const INSPECT_FLAGS = {
  inspect: { type: 'boolean', default: false },
  'inspect-port': { type: 'string' },
  'inspect-host': { type: 'string' },
  'inspect-keep': { type: 'boolean', default: false },
} as const;

export const INSPECT_HELP = `  --inspect[=PORT]    watch the run live in the browser (prints one URL; 127.0.0.1, a free port unless given)
  --inspect-host ADDR bind the inspector to ADDR instead of 127.0.0.1 (exposes it beyond this machine)
  --inspect-keep      keep the inspector serving after the run ends, until Ctrl-C`;

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
}

export interface CliInspector {
  inspector: Inspector;
  observers: RunObserverFactory[];
  forkObservers: RunObserverFactory[];
  /** After the run: with --inspect-keep, serve until Ctrl-C; else close. */
  finish(): Promise<void>;
}

export async function startCliInspector(values: InspectValues, io: CliIo, command: string): Promise<CliInspector | null> {
  const wanted = values.inspect === true || values['inspect-port'] !== undefined || values['inspect-host'] !== undefined || values['inspect-keep'] === true;
  if (!wanted) return null;
  const portText = values['inspect-port'];
  const port = portText === undefined || portText === '' ? 0 : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--inspect expects a port from 0 to 65535, got '${portText}' (see turnloop ${command} --help)`);
  const keep = values['inspect-keep'] === true;
  let inspector: Inspector;
  try {
    inspector = await startInspector({ port, keep: true, ...(values['inspect-host'] ? { host: values['inspect-host'] } : {}) });
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new UsageError(`--inspect: cannot listen on ${values['inspect-host'] ?? '127.0.0.1'}:${port} (${code ?? String(error)})`);
  }
  io.stderr.write(`inspector: ${inspector.url}\n`);
  return {
    inspector,
    observers: [inspector.attach('main')],
    forkObservers: [inspector.attach('compaction')],
    async finish() {
      if (!keep) return inspector.close();
      io.stderr.write(`inspector: still serving the finished run at ${inspector.url} (Ctrl-C to stop)\n`);
      await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
      await inspector.close();
    },
  };
}
