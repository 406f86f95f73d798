/**
 * The headless mode's V8 start-up snapshot: `npm run build` runs `node --build-snapshot` on this module (bundled into
 * one script, as Node's snapshot builder requires), which loads the headless bundle from its code cache and
 * initialises its modules; the blob then holds that heap (the bundle's functions, with the bytecode the cache gave
 * them, the loop machine, the schemas). `node --snapshot-blob <blob> bin/turnloop.mjs <args>` starts from that heap
 * and runs `runFromSnapshot` instead of the bin: no bundle to read, no cache to deserialise, no module to initialise.
 * `agentSdkOptions()` passes the flag to the Agent SDK's Node only when the blob fits it
 * (src/agent-sdk/headless-snapshot-args.ts).
 *
 * Invariants:
 * - What a run sees is its own: argv, stdin, env and cwd are read by the code a run calls, never by a module's
 *   initialisation (test/unit/agent-sdk/headless-snapshot.test.ts compares a run from the blob with the normal
 *   start, and two runs from the blob with each other).
 * - The blob only runs the bin it was built beside, on a headless command line; any other script or command line
 *   (the clone moved, `turnloop demo`) runs in a Node started without the blob, as it would have run.
 * - Node 20's builder refuses `node:http` and `node:https` (`methods.toSorted is not a function`): the bundle loads
 *   both at their first use (scripts/build.mjs, LAZY_BUILTINS), so they are not in the heap the blob holds.
 */
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { startupSnapshot } from 'node:v8';
import { isHeadlessInvocation } from '../agent-sdk/headless-invocation.ts';
import { realPath } from '../agent-sdk/headless-snapshot-args.ts';
import { loadBundle, type LoadedBundle } from './bundle-loader.ts';

/** What the bundle exports (src/cli/headless-entry.ts) that a run from the blob calls. */
interface HeadlessExports {
  headlessMain(argv: string[]): Promise<number>;
  exitQuietlyOnClosedStdout(): void;
}

/**
 * In the snapshot builder: loads `bundleFile` from its code cache and makes `runFromSnapshot` the blob's main
 * function. How the bundle was loaded (the build refuses a blob made from anything but its cache: without the
 * cache's bytecode every function a run calls would be compiled at run time).
 */
export function prepareHeadlessSnapshot(bundleFile: string): LoadedBundle<HeadlessExports>['via'] {
  const { exports, via } = loadBundle<HeadlessExports>(bundleFile);
  const bin = realpathSync(join(dirname(bundleFile), '../../bin/turnloop.mjs'));
  // Only the exports are kept: the loaded script object holds a native handle the builder cannot serialise.
  startupSnapshot.setDeserializeMainFunction(() => void runFromSnapshot(exports, bin));
  return via;
}

/** A process started from the blob: the bin's headless path with the bundle already loaded, or else the script. */
async function runFromSnapshot(headless: HeadlessExports, bin: string): Promise<void> {
  const [, script, ...argv] = process.argv;
  if (script === undefined || !isHeadlessInvocation(argv) || realPath(script) !== bin) {
    runWithoutSnapshot();
    return;
  }
  // As bin/turnloop.mjs does for a headless command line.
  headless.exitQuietlyOnClosedStdout();
  process.once('SIGTERM', () => process.exit(143));
  process.once('SIGHUP', () => process.exit(129));
  process.exitCode = await headless.headlessMain(argv);
}

/**
 * Runs this process's command line in a Node started without the blob, standing in for it (stdio, signals, exit
 * code): a script run from the blob cannot `import()` (Node 20 gives it no dynamic-import callback).
 */
function runWithoutSnapshot(): void {
  const execArgv = process.execArgv.filter((arg, i, all) => arg !== '--snapshot-blob' && all[i - 1] !== '--snapshot-blob');
  const child = spawn(process.execPath, [...execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    process.stderr.write(`turnloop: could not start ${process.execPath}: ${error.message}\n`);
    process.exitCode = 1;
  });
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? 128 + (signal ? constants.signals[signal] : 0);
  });
}
