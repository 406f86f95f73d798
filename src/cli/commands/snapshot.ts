/**
 * `turnloop snapshot`: makes the headless mode's start-up snapshot (and, when the package has none for this V8, its
 * code cache) for the Node that runs the command, beside the bundle in the installed package. `agentSdkOptions()`
 * then starts the Agent SDK's sessions from it (docs/agent-sdk.md, "A faster start"). `npm run build` does the
 * same in a clone; the published package carries no blob, since one fits a single Node exactly.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { codeCachePath, HEADLESS_BUNDLE } from '../bundle-loader.ts';
import { EXIT_FAILURE_TERMINAL, EXIT_OK, UsageError, type CliCommand, type CliIo } from '../cli-io.ts';
import { makeHeadlessCodeCache, makeHeadlessSnapshot } from '../headless-warm-start.ts';
import { parseFlags } from './parse-flags.ts';

const HELP = `Usage: turnloop snapshot

Makes the headless mode's V8 start-up snapshot for the Node that runs this command (${process.version} here),
in the installed package beside the headless bundle. agentSdkOptions() then starts an Agent SDK session from it,
some 20 ms sooner to its result (docs/agent-sdk.md, "A faster start"). Run it again after changing Node: a
snapshot fits the Node that made it and no other, and agentSdkOptions() ignores one made by another.
It first compiles the bundle's code cache for this Node's V8 when the package has none (two offline runs
against a loopback fake API). Takes a few seconds; writes only beside the bundle. Run it without NODE_OPTIONS.`;

async function run(args: string[], io: CliIo): Promise<number> {
  const { positionals } = parseFlags('snapshot', args, {});
  if (positionals.length > 0) throw new UsageError(`turnloop snapshot takes no arguments, got '${positionals[0]}' (see turnloop snapshot --help)`);
  // The cache is compiled in this process, under NODE_OPTIONS' V8 flags too: the plain start and the snapshot
  // builder (which runs without NODE_OPTIONS) would refuse it, and it would stay beside the bundle.
  const nodeOptions = (io.env.NODE_OPTIONS ?? '').trim();
  if (nodeOptions !== '') {
    io.stderr.write(`turnloop snapshot: NODE_OPTIONS is set ('${nodeOptions}'): the code cache and the snapshot must be made under the bundle's own V8 flags alone (Node refuses them under others); run it again without NODE_OPTIONS\n`);
    return EXIT_FAILURE_TERMINAL;
  }
  const bundleFile = fileURLToPath(new URL(`../${HEADLESS_BUNDLE}`, import.meta.url));
  if (!existsSync(bundleFile)) {
    io.stderr.write(`turnloop snapshot: the headless bundle ${bundleFile} is missing: run npm run build\n`);
    return EXIT_FAILURE_TERMINAL;
  }
  if (!existsSync(codeCachePath(bundleFile))) {
    io.stderr.write(`turnloop snapshot: compiling the headless bundle's code cache for V8 ${process.versions.v8}...\n`);
    await makeHeadlessCodeCache(bundleFile);
  }
  const outcome = makeHeadlessSnapshot(bundleFile);
  if (!outcome.made) {
    io.stderr.write(`turnloop snapshot: no snapshot for Node ${process.version}: ${outcome.reason}\n`);
    return EXIT_FAILURE_TERMINAL;
  }
  io.stdout.write(`${outcome.blob}\nThe start-up snapshot for Node ${process.version} (${process.arch}): agentSdkOptions() starts Agent SDK sessions from it.\n`);
  return EXIT_OK;
}

export const snapshotCommand: CliCommand = { name: 'snapshot', help: HELP, run };
