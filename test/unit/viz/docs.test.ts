import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MissingGeneratedBlockError, outcomeTable, REGENERATE_HINT, STATECHART_DOC, updateGeneratedBlocks } from '../../../src/viz/docs.ts';

const docPath = new URL(`../../../${STATECHART_DOC}`, import.meta.url);

describe('docs/statechart.md', () => {
  it('matches the machine (regenerate with the script when this fails)', () => {
    const committed = readFileSync(docPath, 'utf8');
    const fresh = updateGeneratedBlocks(committed);
    expect(fresh === committed, `${STATECHART_DOC} is stale: run \`${REGENERATE_HINT}\` and commit the result`).toBe(true);
  });

  it('embeds the Mermaid diagrams: top level, root, one per compound state', () => {
    expect(readFileSync(docPath, 'utf8').match(/```mermaid\n%%\{init[^\n]*\nstateDiagram-v2\n/g)).toHaveLength(4);
  });

  it('has one table row per Continue and Terminal reason, 18 in all (max_budget_usd included)', () => {
    const rows = outcomeTable().split('\n').slice(2);
    expect(rows).toHaveLength(18);
    expect(rows.filter((r) => r.includes('| continue |'))).toHaveLength(7);
    expect(rows.filter((r) => r.includes('| terminal |'))).toHaveLength(11);
    expect(rows.find((r) => r.includes('`stop_hook_blocking`'))).toContain('`stopHookBlocks`');
  });

  it('keeps the hand-written prose and refuses a doc without markers', () => {
    const doc = 'intro\n<!-- BEGIN GENERATED: diagram -->\nold\n<!-- END GENERATED: diagram -->\n<!-- BEGIN GENERATED: outcomes -->\n<!-- END GENERATED: outcomes -->\noutro\n';
    const updated = updateGeneratedBlocks(doc);
    expect(updated.startsWith('intro\n')).toBe(true);
    expect(updated.endsWith('outro\n')).toBe(true);
    expect(updated).not.toContain('\nold\n');
    expect(updateGeneratedBlocks(updated)).toBe(updated);
    expect(() => updateGeneratedBlocks('no markers')).toThrow(MissingGeneratedBlockError);
  });
});
