/**
 * Regenerates the Extension table of docs/fidelity.md from `src/config/extensions.ts`, and its drift table from
 * `src/config/executable-drift.ts`. `--check` only reports:
 * exit 1 when the committed doc is stale.
 *
 *   npx tsx scripts/gen-fidelity-doc.ts          # rewrite
 *   npx tsx scripts/gen-fidelity-doc.ts --check  # verify
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderDriftTable } from '../src/config/executable-drift.ts';
import { renderExtensionTable } from '../src/config/extensions.ts';

export const FIDELITY_DOC = 'docs/fidelity.md';
const BEGIN = '<!-- BEGIN GENERATED: extensions (npm run docs:fidelity) -->';
const END = '<!-- END GENERATED: extensions -->';

const DRIFT_BEGIN = '<!-- BEGIN GENERATED: drift (npm run docs:fidelity) -->';
const DRIFT_END = '<!-- END GENERATED: drift -->';

function withBlock(doc: string, begin: string, end: string, body: string): string {
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${FIDELITY_DOC}: the markers of a generated block are missing (${begin})`);
  return `${doc.slice(0, from + begin.length)}\n${body}\n${doc.slice(to)}`;
}

/** The doc with its generated blocks (the Extensions, the executable's drift) replaced by the current tables. */
export function withFreshExtensionTable(doc: string): string {
  return withBlock(withBlock(doc, BEGIN, END, renderExtensionTable()), DRIFT_BEGIN, DRIFT_END, renderDriftTable());
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
