/**
 * The context constants of the Claude Code release that wrote a transcript (`src/claude/version-constants.ts`),
 * each row read from the published cli.js of the releases it names; the reference (2.1.88,
 * `services/compact/autoCompact.ts:33-145`) stays the engine's default.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, resolveConfig } from '../../../src/config/config.ts';
import { checkTranscript } from '../../../src/claude/check.ts';
import { parseTranscript } from '../../../src/claude/transcript.ts';
import { compareVersions, configForVersion, constantsForVersion, VERSION_CONSTANTS } from '../../../src/claude/version-constants.ts';
import { contextThresholds } from '../../../src/rules/thresholds.ts';
import { CLAUDE_TRANSCRIPTS_DIR } from '../../helpers/fixtures.ts';

const MODEL = 'claude-sonnet-4-5-20250929';
const at = (version: string | null) => {
  const t = contextThresholds(MODEL, configForVersion(resolveConfig({ model: MODEL }), version));
  return [t.autocompact, t.blocking];
};

describe('context constants by Claude Code release', () => {
  it('orders releases numerically', () => {
    expect(compareVersions('2.1.9', '2.1.10')).toBeLessThan(0);
    expect(compareVersions('2.1.39', '2.1.39')).toBe(0);
    expect(compareVersions('2.0.0', '1.0.100')).toBeGreaterThan(0);
  });

  it.each([
    ['1.0.100', 155_000, 200_000],
    ['2.0.0', 155_000, 200_000],
    ['2.1.7', 155_000, 165_000],
    ['2.1.12', 155_000, 165_000],
    ['2.1.14', 155_000, 197_000],
    ['2.1.20', 155_000, 197_000],
    ['2.1.21', 167_000, 197_000],
    ['2.1.39', 167_000, 197_000],
    ['2.1.74', 167_000, 197_000],
    ['2.1.75', 167_000, 177_000],
    ['2.1.88', 167_000, 177_000],
  ])('%s: autocompact at %i, blocking at %i (200k window, 32k output)', (version, autocompact, blocking) => {
    expect(constantsForVersion(version).row).not.toBeNull();
    expect(at(version)).toEqual([autocompact, blocking]);
  });

  it('a release in no row, or none recorded, is checked under the reference constants and says so', () => {
    for (const version of ['2.0.50', '2.1.100', null]) {
      const choice = constantsForVersion(version);
      expect(choice.row).toBeNull();
      expect(choice.assumed).toMatch(/reference constants/);
      expect(at(version)).toEqual([167_000, 177_000]);
    }
    expect(constantsForVersion('2.1.100').assumed).toContain('Claude Code 2.1.100 is in no row');
  });

  it('rows do not overlap, and each names its evidence', () => {
    for (const [i, row] of VERSION_CONSTANTS.entries()) {
      expect(compareVersions(row.from, row.to)).toBeLessThanOrEqual(0);
      if (i > 0) expect(compareVersions(VERSION_CONSTANTS[i - 1].to, row.from)).toBeLessThan(0);
      expect(row.evidence).toMatch(/cli\.js of /);
    }
    expect(DEFAULT_CONFIG.thresholds.blockingFromWindow).toBe(false);
  });

  it('check-claude uses the recorded release: the same lines said to be from 2.1.7 compact 12,000 tokens earlier', () => {
    const file = join(CLAUDE_TRANSCRIPTS_DIR, 'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl');
    const text = readFileSync(file, 'utf8');
    const as39 = checkTranscript(parseTranscript(text, file));
    const as217 = checkTranscript(parseTranscript(text.replaceAll('"version":"2.1.39"', '"version":"2.1.7"'), file));
    expect(as39.constants).toContain('Claude Code 2.1.39');
    expect(as217.constants).toContain('Claude Code 2.1.7');
    const run39 = as39.runs[2];
    const run217 = as217.runs[2];
    expect(run39.ok).toBe(true);
    // Under 2.1.7's 155,000 the engine compacts long before call 83, where this 2.1.39 session did not.
    expect(run217.autocompact.engine.length).toBeGreaterThan(0);
    expect(run217.autocompact.engine[0]).toBeLessThan(83);
    expect(run217.ok).toBe(false);
  });
});
