/**
 * Regenerates the Extension table of docs/fidelity.md from `src/config/extensions.ts`. `--check` only reports:
 * exit 1 when the committed doc is stale.
 *
 *   npx tsx scripts/gen-fidelity-doc.ts          # rewrite
 *   npx tsx scripts/gen-fidelity-doc.ts --check  # verify
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderExtensionTable } from '../src/config/extensions.ts';

export const FIDELITY_DOC = 'docs/fidelity.md';
const BEGIN = '<!-- BEGIN GENERATED: extensions (npm run docs:fidelity) -->';
const END = '<!-- END GENERATED: extensions -->';

/** The doc with its generated block replaced by the current table. */
export function withFreshExtensionTable(doc: string): string {
  const from = doc.indexOf(BEGIN);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${FIDELITY_DOC}: the markers of the generated block are missing`);
  return `${doc.slice(0, from + BEGIN.length)}\n${renderExtensionTable()}\n${doc.slice(to)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = fileURLToPath(new URL(`../${FIDELITY_DOC}`, import.meta.url));
  const current = readFileSync(path, 'utf8');
  const next = withFreshExtensionTable(current);
  if (process.argv.includes('--check')) {
    if (next !== current) {
      process.stderr.write(`${FIDELITY_DOC} is stale: run npm run docs:fidelity\n`);
      process.exitCode = 1;
    }
  } else if (next !== current) {
    writeFileSync(path, next);
    process.stdout.write(`updated ${FIDELITY_DOC}\n`);
  }
}
