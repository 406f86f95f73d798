/** docs/agent-sdk.md shows the result table of src/agent-sdk/result-table.ts as it is (one fact in one place). */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { RESULT_TABLE, resultTableMarkdown } from '../../../src/agent-sdk/result-table.ts';
import { TERMINAL_REASONS } from '../../../src/data/outcomes.ts';

it('every terminal of the loop has a row', () => {
  for (const reason of TERMINAL_REASONS) expect(RESULT_TABLE[reason], reason).toBeDefined();
});

it('every error row carries errors and every success row a result', () => {
  for (const [ending, row] of Object.entries(RESULT_TABLE)) {
    expect(row.subtype === 'success' ? row.payload !== 'errors' : row.payload === 'errors' && row.isError, ending).toBe(true);
  }
});

it('docs/agent-sdk.md holds the current table', () => {
  const doc = readFileSync(new URL('../../../docs/agent-sdk.md', import.meta.url), 'utf8');
  const shown = doc.split('<!-- result-table:start -->\n')[1]?.split('\n<!-- result-table:end -->')[0];
  expect(shown, 'regenerate the table in docs/agent-sdk.md (see its "The result" section)').toBe(resultTableMarkdown());
});
