/**
 * import-claude → simulate: every loop run of the shared Claude Code transcripts (the sessions and the
 * transcripts in their `subagents/` folders) is imported in-process, loads as a `turnloop simulate` scenario (no
 * schema error) and reaches its own `expect` through the full simulate stack: the real Anthropic adapter and SDK
 * against the loopback fake API, real tool runtime with scripted tools, the real forked compactor.
 */
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outcomeMismatches } from '../../../src/scenario/check-outcome.ts';
import { loadScenario } from '../../../src/scenario/load-scenario.ts';
import { simulateScenario } from '../../../src/scenario/simulate.ts';
import { splitRuns } from '../../../src/claude/runs.ts';
import { readClaudeSession } from '../../../src/claude/session.ts';
import { runCli } from '../cli/capture-io.ts';
import { CLAUDE_TRANSCRIPTS_DIR } from '../../helpers/fixtures.ts';

const FIXTURES = CLAUDE_TRANSCRIPTS_DIR;
const SESSIONS = readdirSync(FIXTURES).filter((name) => name.endsWith('.jsonl')).sort();
const OUT = mkdtempSync(join(tmpdir(), 'turnloop-import-simulate-'));

function scenarioFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return scenarioFiles(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

// Imported once, at collection time, so that each run is its own test case.
for (const session of SESSIONS) {
  const { code, stderr } = await runCli(['import-claude', join(FIXTURES, session), '--out', join(OUT, basename(session, '.jsonl'))]);
  if (code !== 0) throw new Error(`import-claude ${session} exited ${code}: ${stderr}`);
}
const IMPORTED = scenarioFiles(OUT)
  .map((path) => relative(OUT, path))
  .sort();

describe('import-claude writes scenarios that turnloop simulate reproduces', () => {
  it('imports every run of every shared transcript, subagents (files and inline sidechains) included', () => {
    const sessions = SESSIONS.map((session) => readClaudeSession(join(FIXTURES, session)));
    const runsOf = (transcripts: Parameters<typeof splitRuns>[0][]) => transcripts.reduce((n, t) => n + splitRuns(t).length, 0);
    const childRuns = runsOf(sessions.flatMap((s) => s.children.map((c) => c.transcript)));
    expect(IMPORTED).toHaveLength(runsOf(sessions.map((s) => s.main)) + childRuns);
    expect(IMPORTED.filter((file) => file.includes('/subagents/')).length).toBe(childRuns);
    expect(IMPORTED.filter((file) => file.includes('/subagents/sidechain-')).length).toBe(2);
  });

  it('carries the interrupts, the automatic compaction and the provenance of the recordings', () => {
    const scenarios = IMPORTED.map((file) => loadScenario(join(OUT, file), OUT));
    expect(scenarios.filter((s) => s.abort?.during === 'tools').length).toBeGreaterThan(0);
    expect(scenarios.filter((s) => s.abort?.during === 'sampling').length).toBeGreaterThan(0);
    // fa812bfe and its 1.0.x-shaped copy (the inline-sidechain fixture) compact once each.
    expect(scenarios.flatMap((s) => s.expect?.autocompactBeforeCalls ?? [])).toEqual([83, 83]);
    for (const s of scenarios) expect(s.source?.file.startsWith(FIXTURES)).toBe(true);
  });

  it.each(IMPORTED)('%s loads and reaches its own expect (model calls, transitions, ending, autocompact)', async (file) => {
    const scenario = loadScenario(join(OUT, file), OUT);
    expect(scenario.expect).toMatchObject({ terminal: expect.any(String), modelCalls: expect.any(Number), autocompactBeforeCalls: expect.any(Array) });
    const result = await simulateScenario(scenario);
    expect(outcomeMismatches(scenario.expect!, result)).toEqual([]);
  });

  it('is accepted by the simulate command itself (--check exits 0)', async () => {
    const file = join(OUT, 'short', 'run-001.json');
    const run = await runCli(['simulate', file, '--check', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).terminal.reason).toBe('aborted_tools');
  });
});
