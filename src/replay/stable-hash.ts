/**
 * Stable hashing for session logs.
 *
 * Invariants:
 * - `stableStringify` is canonical: object keys are sorted, `undefined` members are dropped (as JSON does), so two
 *   deep-equal JSON values always give the same text whatever their key order.
 * - Both chains are incremental: the hash of step n covers the hash of step n-1 and O(event size) more, never
 *   O(history).
 * - Versions 3 (written now) and 2 (`lineHash`): a hash covers the bytes of lines up to its own hash member: in
 *   version 3 those of a whole commit group (one hash on its last line), in version 2 those of its own line, i.e.
 *   the events as logged and the readable digests `at` (`controlDigest`: state value, turn, message count, id
 *   counter). Replay hashes the bytes it read (nothing is serialised again) and compares every `at` with its own
 *   state. Every byte is covered; the reducer's decisions are checked through those four fields, so a divergence
 *   shows at the first step where it changes a state value, a count or the number of ids handed out.
 * - Version 1 (still verified, `chainHash`): the hash covers the event re-serialised and the larger control
 *   summary (`controlSummary`: also tokens, counters, iteration, effect types and ids). Message texts the reducer
 *   derived itself are covered by neither (they follow from the events).
 */
import * as crypto from 'node:crypto';
import type { Effect } from '../data/effects.ts';
import type { LoopState } from '../data/state.ts';

/** Canonical JSON text (sorted keys); the input must be JSON data. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : stableStringify(item))).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .sort()
    .flatMap((key) => {
      const item = (value as Record<string, unknown>)[key];
      return item === undefined || typeof item === 'function' ? [] : [`${JSON.stringify(key)}:${stableStringify(item)}`];
    });
  return `{${entries.join(',')}}`;
}

// One-shot `crypto.hash` (Node >= 20.12) skips building a Hash object, which is most of the cost for the short
// text hashed per step; read through the namespace because older Node versions lack it.
const oneShotHash: typeof crypto.hash | undefined = crypto.hash;

/**
 * 16 hex digits of SHA-256 of `data` (a text is hashed as its UTF-8 bytes, so a text and its encoded bytes agree:
 * the recorder hashes the bytes it then writes). Native, ~1 GB/s; collisions are irrelevant at this length for
 * divergence checks.
 */
export function shortHash(data: string | Uint8Array): string {
  const hex = oneShotHash ? oneShotHash('sha256', data, 'hex') : crypto.createHash('sha256').update(data).digest('hex');
  return hex.slice(0, 16);
}

/** The statechart state value as one dotted string, e.g. `exitLadder.stopHooks`. */
export function stateValueString(value: LoopState['value']): string {
  if (typeof value === 'string') return value;
  // The first key without `Object.entries` (it allocates; this runs for every logged and replayed step).
  for (const key in value) return `${key}.${stateValueString(value[key] as LoopState['value'])}`;
  return '?.';
}

/**
 * Version 1: the control fields of a state (and the effects of its step): everything that steers the loop, in O(1) size
 * (ids of tool uses are O(tools of this iteration)). Messages are represented by their count and last uuid.
 */
export function controlSummary(state: LoopState, effects: readonly Effect[]): Record<string, unknown> {
  const c = state.context;
  const lastMessage = c.messages[c.messages.length - 1];
  return {
    value: stateValueString(state.value),
    status: state.status,
    seq: c.seq,
    turnCount: c.turnCount,
    modelCalls: c.modelCalls,
    currentModel: c.currentModel,
    transition: c.transition,
    terminal: c.terminal,
    messages: c.messages.length,
    lastMessage: lastMessage?.uuid ?? null,
    // Only the reported part: the estimate depends on text lengths, which redaction changes (see redact.ts).
    reportedTokens: c.tokens.reported,
    outputTokens: c.outputTokens,
    recovery: c.maxOutputTokensRecoveryCount,
    reactive: c.hasAttemptedReactiveCompact,
    override: c.maxOutputTokensOverride,
    stopHookActive: c.stopHookActive,
    stopHookBlocking: c.stopHookBlockingCount,
    tracking: c.autoCompactTracking,
    taskBudgetRemaining: c.taskBudgetRemaining,
    iter: {
      assistant: c.iter.assistantMessages.length,
      toolUses: c.iter.toolUses.map((t) => t.id),
      answered: c.iter.answeredToolUseIds.length,
      results: c.iter.toolResults.length,
      followUp: c.iter.needsFollowUp,
      withheld: c.iter.withheld?.uuid ?? null,
      abort: c.iter.abortReason,
      compacted: c.iter.compacted,
    },
    effects: effects.map((e) => `${e.type}:${e.id}`),
  };
}

/** A compact, human-readable digest of the summary, stored beside each hash so a divergence can show a diff. */
export function controlDigest(state: LoopState): { v: string; turn: number; msgs: number; seq: number } {
  return { v: stateValueString(state.value), turn: state.context.turnCount, msgs: state.context.messages.length, seq: state.context.seq };
}

/**
 * Version 1: hash of step n from the hash of step n-1, the logged event text and the control summary after the step, as
 * JSON text. The summary is serialised with plain `JSON.stringify`: `controlSummary` fixes its key order, and its
 * nested objects are built by the same reducer code live and in replay, so the text is deterministic (and 3×
 * cheaper than `stableStringify`).
 */
export function chainHash(previous: string, eventJson: string, controlJson: string): string {
  return shortHash(`${previous}\n${eventJson}\n${controlJson}`);
}

/**
 * The start of a digest's JSON text up to its turn, per state value: the machine hands out one value object per
 * state (8 of them in a whole run of the bench), so a line's digest is one lookup and three numbers instead of
 * walking the value and escaping its name every step. Values are keyed weakly (objects) or by their text (a
 * state name: the chart's, a finite set), so nothing outlives its use.
 */
const digestHeads = new WeakMap<object, string>();
const atomicDigestHeads = new Map<string, string>();

function digestHead(value: LoopState['value']): string {
  if (typeof value === 'string') {
    let head = atomicDigestHeads.get(value);
    if (head === undefined) {
      head = `{"v":${JSON.stringify(value)},"turn":`;
      if (atomicDigestHeads.size < 1024) atomicDigestHeads.set(value, head);
    }
    return head;
  }
  let head = digestHeads.get(value);
  if (head === undefined) {
    head = `{"v":${JSON.stringify(stateValueString(value))},"turn":`;
    digestHeads.set(value, head);
  }
  return head;
}

/** The `at` of versions 2 and 3 as JSON text, built directly: the same text as `JSON.stringify(controlDigest(state))`. */
export function controlDigestJson(state: LoopState): string {
  const c = state.context;
  return `${digestHead(state.value)}${c.turnCount},"msgs":${c.messages.length},"seq":${c.seq}}`;
}

/** The chain step of versions 2 and 3: the previous hash and the bytes it covers (up to the new hash member). */
export function lineHash(previous: string, linePrefix: string): string {
  return shortHash(`${previous}\n${linePrefix}`);
}
