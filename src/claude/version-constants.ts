/**
 * The context constants a Claude Code transcript was recorded under, by the release that wrote it (its `version`
 * field). `check-claude` and `import-claude` check a run under its release's constants; the engine's defaults stay
 * the reference's (Claude Code 2.1.88, `services/compact/autoCompact.ts:33-145`).
 *
 * Invariants:
 * - Each row covers the releases from `from` to `to` (both inspected, inclusive) and cites its evidence: the
 *   published `cli.js` of the releases named (npm `@anthropic-ai/claude-code`), read at the functions that compute
 *   the effective window and the blocking limit, and a recorded session where there is one. A release between two
 *   inspected ones with the same code is assumed to have it too; nothing is extrapolated past a row's ends.
 * - A version in no row (or none recorded) is checked under the reference constants, and the choice says so.
 * - Only `thresholds` change between rows: the estimate itself is the reference's everywhere (releases up to at
 *   least 2.1.39 did not count tool_use and thinking blocks, and anchored at the response's last block; that is
 *   not modelled, it moves a count by a few hundred tokens at most).
 */
import { DEFAULT_CONFIG, resolveConfig, type ContextThresholdConfig, type LoopConfig } from '../config/config.ts';

export interface VersionConstants {
  /** First and last inspected release of the range (inclusive). */
  from: string;
  to: string;
  thresholds: Partial<ContextThresholdConfig>;
  /** The rule in words, with its figures at a 200k window and 32k output. */
  rule: string;
  evidence: string;
}

const REFERENCE = DEFAULT_CONFIG.thresholds;

export const VERSION_CONSTANTS: readonly VersionConstants[] = [
  {
    from: '1.0.100',
    to: '2.0.0',
    thresholds: { maxOutputReservation: 32_000, blockingBuffer: 0, blockingFromWindow: true },
    rule: 'output reservation min(output, 32,000): autocompact at 155,000; no blocking check before the request',
    evidence: 'cli.js of 1.0.100 and 2.0.0: the reservation is the CLAUDE_CODE_MAX_OUTPUT_TOKENS default (32,000; 8,192 for 3.5 and Haiku models), autocompact buffer 13,000, and the token warning state has no blocking limit',
  },
  {
    from: '2.1.7',
    to: '2.1.12',
    thresholds: { maxOutputReservation: 32_000 },
    rule: 'output reservation min(output, 32,000): autocompact at 155,000, blocking at effective - 3,000 = 165,000',
    evidence: 'cli.js of 2.1.7, 2.1.10, 2.1.11 and 2.1.12: effective window = window - min(32,000 default, model output), no 20,000 cap; blocking limit = effective - 3,000. A real 2.1.7 session auto-compacts at 155,598 tokens (issue 33)',
  },
  {
    from: '2.1.14',
    to: '2.1.20',
    thresholds: { maxOutputReservation: 32_000, blockingFromWindow: true },
    rule: 'output reservation min(output, 32,000): autocompact at 155,000, blocking at window - 3,000 = 197,000',
    evidence: 'cli.js of 2.1.14, 2.1.18, 2.1.19 and 2.1.20: no 20,000 cap yet; the blocking limit is taken from the whole window',
  },
  {
    from: '2.1.21',
    to: '2.1.74',
    thresholds: { blockingFromWindow: true },
    rule: 'output reservation min(output, 20,000): autocompact at 167,000, blocking at window - 3,000 = 197,000',
    evidence: 'cli.js of 2.1.21, 2.1.25, 2.1.29, 2.1.33, 2.1.36, 2.1.39, 2.1.55, 2.1.70, 2.1.72, 2.1.73 and 2.1.74: reservation capped at 20,000; blocking limit from the whole window. test/fixtures/claude-code-transcripts/fa812bfe-….jsonl (2.1.39) compacts at 167,117 counted tokens',
  },
  {
    from: '2.1.75',
    to: '2.1.88',
    thresholds: {},
    rule: 'the reference: output reservation min(output, 20,000): autocompact at 167,000, blocking at effective - 3,000 = 177,000',
    evidence: 'cli.js of 2.1.75, 2.1.80, 2.1.86 and 2.1.88; the public source of 2.1.88 (services/compact/autoCompact.ts:33-145)',
  },
];

/** Compares dotted release numbers (`2.1.9` < `2.1.10`); a non-numeric part counts as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/).map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split(/[.+-]/).map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export interface VersionChoice {
  version: string | null;
  row: VersionConstants | null;
  /** What a report says when the constants were assumed (no row): null when a row applies. */
  assumed: string | null;
}

const REFERENCE_RULE = `the reference constants (output reservation min(output, ${REFERENCE.maxOutputReservation}), autocompact ${REFERENCE.autocompactBuffer} below the effective window, blocking ${REFERENCE.blockingBuffer} below it)`;

/**
 * @example
 * constantsForVersion('2.1.39').row?.rule // 'output reservation min(output, 20,000): autocompact at 167,000, ...'
 * constantsForVersion('2.1.72').assumed // 'Claude Code 2.1.72 is in no row of the version table: checked under ...'
 */
export function constantsForVersion(version: string | null): VersionChoice {
  if (version === null) return { version, row: null, assumed: `no Claude Code version recorded: checked under ${REFERENCE_RULE}` };
  const row = VERSION_CONSTANTS.find((r) => compareVersions(version, r.from) >= 0 && compareVersions(version, r.to) <= 0) ?? null;
  return { version, row, assumed: row ? null : `Claude Code ${version} is in no row of the version table: checked under ${REFERENCE_RULE}` };
}

/** `base` with the thresholds of the release that wrote the run. */
export function configForVersion(base: LoopConfig, version: string | null): LoopConfig {
  const { row } = constantsForVersion(version);
  return row ? resolveConfig({ thresholds: row.thresholds }, base) : base;
}
