#!/usr/bin/env node
// Entry point of the `turnloop` CLI. The published package runs the built JavaScript in dist/ (`npm pack` builds it,
// through `prepack`). A headless command line (`turnloop -p`, the Agent SDK's executable), where start-up is what a
// program waits for, runs the headless mode's one-file bundle with its code cache (src/cli/bundle-loader.ts).
// A fresh clone has no dist/ (installing runs no build of ours): there the TypeScript sources run through tsx, a
// devDependency of the clone, so `npm install && npx turnloop demo` needs no build step; the viewer's page script
// (which `viz` and the inspector inline) is bundled on the first run that finds it missing.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const fromDist = existsSync(new URL('../dist/cli/main.js', import.meta.url));
// The check of the command line and the bundle's loader, as the build writes them into one CommonJS file
// (src/cli/bundle-loader.ts, HEADLESS_START): required, it costs a start-up less than two modules imported.
const headlessStart = new URL('../dist/cli/headless-start.cjs', import.meta.url);

/** The headless bundle's entry when this is a headless command line and the build made the bundle; else null. */
function headlessBundle() {
  if (!fromDist || !existsSync(headlessStart)) return null;
  const { isHeadlessInvocation, HEADLESS_BUNDLE, loadBundle } = createRequire(import.meta.url)(fileURLToPath(headlessStart));
  if (!isHeadlessInvocation(argv)) return null;
  const bundle = fileURLToPath(new URL(`../dist/cli/${HEADLESS_BUNDLE}`, import.meta.url));
  return existsSync(bundle) ? loadBundle(bundle).exports : null;
}

async function cliModules() {
  if (!fromDist) {
    const tsx = await import('tsx/esm/api').catch(() => null);
    if (!tsx || !existsSync(new URL('../src/cli/main.ts', import.meta.url))) {
      process.stderr.write('turnloop: dist/cli/main.js is missing: run npm run build\n');
      process.exit(1);
    }
    tsx.register();
    if (!existsSync(new URL('../src/viz/viewer/viewer.bundle.js', import.meta.url))) {
      const { buildViewerBundle } = await import('../scripts/build-viewer.ts');
      await buildViewerBundle();
    }
  }
  const cli = (file) => new URL(fromDist ? `../dist/cli/${file}.js` : `../src/cli/${file}.ts`, import.meta.url).href;
  const [{ exitQuietlyOnClosedStdout }, { main }] = await Promise.all([import(cli('cli-io')), import(cli('main'))]);
  return { exitQuietlyOnClosedStdout, main };
}

const headless = headlessBundle();
const { exitQuietlyOnClosedStdout, main } = headless ? { ...headless, main: headless.headlessMain } : await cliModules();
exitQuietlyOnClosedStdout();
// Ended from outside (an Agent SDK program's abort sends SIGTERM): exit through 'exit' so its listeners kill what
// the run started (Bash commands' process groups, MCP servers) instead of leaving them running.
process.once('SIGTERM', () => process.exit(143));
process.once('SIGHUP', () => process.exit(129));
process.exitCode = await main(argv);
