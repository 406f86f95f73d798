/**
 * Simulate → record → replay: every example scenario, simulated in-process with a session log, replays through
 * the pure reducer (`replay()`, hashes verified) with no divergence, to the same terminal and the same emitted
 * messages; and a log whose middle event was edited is refused at exactly that event.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../src/scenario/load-scenario.ts';
import { simulateScenario } from '../../../src/scenario/simulate.ts';
import { replay, ReplayDivergenceError } from '../../../src/replay/index.ts';
import { REPO_ROOT } from './capture-io.ts';

const DIR = join(REPO_ROOT, 'examples/scenarios');
const FILES = readdirSync(DIR).filter((file) => file.endsWith('.json')).sort();
const LOGS = mkdtempSync(join(tmpdir(), 'turnloop-roundtrip-'));

async function recordExample(file: string): Promise<{ log: string; result: Awaited<ReturnType<typeof simulateScenario>> }> {
  const log = join(LOGS, file.replace(/\.json$/, '.jsonl'));
  const result = await simulateScenario(loadScenario(join(DIR, file), REPO_ROOT), { record: log });
  return { log, result };
}

type Json = Record<string, unknown>;

/** Changes the first string under a `text` or `content` key (depth first); false when there is none. */
function tamperText(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(tamperText);
  if (value === null || typeof value !== 'object') return false;
  const record = value as Json;
  for (const key of ['text', 'content']) {
    if (typeof record[key] === 'string') {
      record[key] = `${record[key] as string} (edited)`;
      return true;
    }
  }
  return Object.values(record).some(tamperText);
}

describe('example scenarios: simulate --record, then replay()', () => {
  it('has examples to round-trip', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(17);
  });

  it.each(FILES)('%s replays with no divergence to the same terminal and emitted messages', async (file) => {
    const { log, result } = await recordExample(file);
    const replayed = replay(log);
    expect(replayed.terminal).toEqual(result.terminal);
    expect(replayed.emitted).toEqual(result.emitted);
    expect(replayed.truncated).toBeNull();
    expect(replayed.steps).toBe(readFileSync(log, 'utf8').trimEnd().split('\n').length);
  });

  it('catches one edited event in the middle of a recorded log, at the line closing its commit group', async () => {
    const { log } = await recordExample('next-turn-one-tool.json');
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    const events = lines.map((line, at) => ({ at, line: JSON.parse(line) as Json })).filter(({ line }) => line.kind === 'event');
    const middle = lines.length / 2;
    // The message-carrying event nearest the middle of the log (a model reply or a tool result).
    const target = events
      .filter(({ line }) => (line.event as Json).message !== undefined)
      .sort((a, b) => Math.abs(a.at - middle) - Math.abs(b.at - middle))[0];
    expect(target.at).toBeGreaterThan(1);
    expect(target.at).toBeLessThan(lines.length - 1);
    const edited = structuredClone(target.line);
    expect(tamperText((edited.event as Json).message)).toBe(true);
    lines[target.at] = JSON.stringify(edited);
    const tampered = join(LOGS, 'tampered.jsonl');
    writeFileSync(tampered, `${lines.join('\n')}\n`);

    let error: unknown;
    try {
      replay(tampered);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ReplayDivergenceError);
    const divergence = error as ReplayDivergenceError;
    expect(divergence.code).toBe('REPLAY_DIVERGENCE');
    // Version 3: one hash per commit group, on its last line; the error names the group's range.
    const closing = events.find(({ at, line }) => at >= target.at && typeof line.hash === 'string')!.line;
    expect(divergence.index).toBe(closing.index);
    if (closing.index !== edited.index) expect(divergence.diff).toContain(`-${closing.index} (one commit group)`);
    expect(divergence.expected.hash).toBe(closing.hash);
    expect(divergence.actual.hash).not.toBe(closing.hash);
    // Everything before the edit still replays: the untampered log is fine.
    expect(() => replay(log)).not.toThrow();
  });
});
