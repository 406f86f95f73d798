/**
 * Regenerates the generated blocks of docs/statechart.md (the Mermaid diagram and the outcome table) from the
 * loop machine. `--check` only reports: exit 1 when the committed doc is stale.
 *
 *   npx tsx scripts/gen-docs.ts          # rewrite
 *   npx tsx scripts/gen-docs.ts --check  # verify (CI)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REGENERATE_HINT, STATECHART_DOC, updateGeneratedBlocks } from '../src/viz/docs.ts';

const path = fileURLToPath(new URL(`../${STATECHART_DOC}`, import.meta.url));
const current = readFileSync(path, 'utf8');
const next = updateGeneratedBlocks(current);

if (process.argv.includes('--check')) {
  if (next !== current) {
    process.stderr.write(`${STATECHART_DOC} is stale: run ${REGENERATE_HINT}\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`${STATECHART_DOC} is up to date\n`);
  }
} else if (next !== current) {
  writeFileSync(path, next);
  process.stdout.write(`updated ${STATECHART_DOC}\n`);
} else {
  process.stdout.write(`${STATECHART_DOC} already up to date\n`);
}
