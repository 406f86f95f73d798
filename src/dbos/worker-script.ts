/**
 * How a worker script of the demos (`demo-worker.ts`, `fleet-worker.ts`) runs as a process: its config is the JSON
 * of its first argument, and its end is its exit code (0 done; 1 after an `error` line on stdout for the parent).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { messageOf } from '../errors/message-of.ts';

/** Writes one JSON line to the parent process. */
export function say(message: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/** Runs `work` with the config from argv when `moduleUrl` is the script Node was started with. */
export function runAsWorkerScript<C>(moduleUrl: string, work: (config: C) => Promise<void>): void {
  if (process.argv[1] === undefined || pathToFileURL(resolve(process.argv[1])).href !== moduleUrl) return;
  work(JSON.parse(process.argv[2] ?? 'null') as C).then(
    () => process.exit(0),
    (error: unknown) => {
      say({ event: 'error', message: messageOf(error) });
      process.exit(1);
    },
  );
}
