/**
 * Bundles the viewer's page script (`src/viz/viewer/app.ts`, with the pure `step()` and the chart code it
 * imports) into `src/viz/viewer/viewer.bundle.js`, which `src/viz/html.ts` inlines into every viewer page.
 * Run by `npm run build` (and so by `npm pack`'s prepack) and by the test setup, so a fresh clone has it.
 * `--dist` also copies the page's assets (the bundle and `viewer.css`) next to the compiled `dist/viz/html.js`.
 *
 *   npx tsx scripts/build-viewer.ts [--dist]
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ENTRY = fileURLToPath(new URL('../src/viz/viewer/app.ts', import.meta.url));
export const BUNDLE = fileURLToPath(new URL('../src/viz/viewer/viewer.bundle.js', import.meta.url));

/** Writes the bundle; returns its size in bytes. */
export async function buildViewerBundle(): Promise<number> {
  const result = await build({
    entryPoints: [ENTRY],
    outfile: BUNDLE,
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    metafile: true,
    logLevel: 'warning',
  });
  return Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const bytes = await buildViewerBundle();
  process.stdout.write(`wrote ${BUNDLE} (${bytes} bytes)\n`);
  if (process.argv.includes('--dist')) {
    const dist = fileURLToPath(new URL('../dist/viz/viewer/', import.meta.url));
    mkdirSync(dist, { recursive: true });
    for (const asset of ['viewer.bundle.js', 'viewer.css']) copyFileSync(fileURLToPath(new URL(`../src/viz/viewer/${asset}`, import.meta.url)), `${dist}${asset}`);
    process.stdout.write(`copied the viewer assets to ${dist}\n`);
  }
}
