/**
 * The public API report (api/, `npm run api:report`): api-extractor reads dist's declarations for every entry point
 * of package.json's `exports` (npm test builds dist/ first) and must find the reports checked in. One report is
 * altered in a copy of api/ to show that a difference is caught.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_FOLDER, apiEntryPoints, runApiReport } from '../../scripts/api-report.ts';

describe('the API report (api/)', () => {
  it('has one report per entry point and nothing else', () => {
    const names = apiEntryPoints().map((e) => `${e.name}.api.md`).sort();
    expect(readdirSync(API_FOLDER).sort()).toEqual(names);
  });

  it('matches the built declarations of every entry point, and notices a report that does not', () => {
    const copy = mkdtempSync(join(tmpdir(), 'turnloop-api-copy-'));
    try {
      cpSync(API_FOLDER, copy, { recursive: true });
      const altered = join(copy, 'turnloop-agents.api.md');
      writeFileSync(altered, readFileSync(altered, 'utf8').replace('export function defineAgentTool(', 'export function defineAgentToolRenamed('));
      const { changed, problems, fresh } = runApiReport('check', copy);
      expect(problems).toEqual([]);
      // Every other entry point matches its report checked in; the altered one is named...
      expect(changed, 'the public API changed: run `npm run build && npm run api:report` and commit api/').toEqual(['./agents']);
      // ...and matches the real report, which the copy no longer does.
      expect(fresh['turnloop-agents']).toBe(readFileSync(join(API_FOLDER, 'turnloop-agents.api.md'), 'utf8'));
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 180_000);
});
