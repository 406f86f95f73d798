#!/usr/bin/env node
// Entry point of the `turnloop` CLI. The published package runs the built JavaScript in dist/ (`npm pack` builds it,
// through `prepack`). A fresh clone has no dist/ (installing runs no build of ours): there the TypeScript sources
// run through tsx, a devDependency of the clone, so `npm install && npx turnloop demo` needs no build step; the
// viewer's page script (which `viz` and the inspector inline) is bundled on the first run that finds it missing.
import { existsSync } from 'node:fs';

const fromDist = existsSync(new URL('../dist/cli/main.js', import.meta.url));
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
const { exitQuietlyOnClosedStdout } = await import(cli('cli-io'));
const { main } = await import(cli('main'));

exitQuietlyOnClosedStdout();
// Ended from outside (an Agent SDK program's abort sends SIGTERM): exit through 'exit' so its listeners kill what
// the run started (Bash commands' process groups, MCP servers) instead of leaving them running.
process.once('SIGTERM', () => process.exit(143));
process.once('SIGHUP', () => process.exit(129));
process.exitCode = await main(process.argv.slice(2));
