/**
 * `toApiMessages` for a caller that converts a growing history again and again (one model call per turn): it
 * remembers the turns of the last conversion and converts again only from the first message that changed.
 *
 * Invariants:
 * - The result always equals `toApiMessages(messages)` (deep-equal; tested on random histories with edits).
 * - Reuse is decided by message identity: history is immutable, so an unchanged message is the same object. The
 *   scan for the first changed message compares references; everything from the turn that holds the message
 *   before it onwards is converted again (that turn may grow). A different object with the same uuid and the
 *   same JSON text also counts as unchanged (a history that went through a JSON round trip, a request built by
 *   hand).
 * - With a `revision` equal to the last call's (same run token, same number: the reducer promises that the
 *   history only grew, `ModelRequest.historyRevision`), the scan is skipped: the whole previous history is taken
 *   as unchanged, after checking only that its first and last messages are still the same objects at the same
 *   places (a cheap guard against a caller that breaks the promise).
 * - The list handed out: a copy (pointers) without a revision; with one, the converter's own list, lent to the
 *   run until its next call. A run makes one model call at a time, so the next call of the same run may cut and
 *   extend that list in place, and a call is O(new messages), flat in the history's length; a call of another
 *   run (or without a revision) works on a copy, since the lent list may still be in flight. The borrower may
 *   replace entries among the last `REPLACEABLE_TURNS` (prompt caching's breakpoints); the converter puts its
 *   own turns back there before reusing the list. Turns are never changed, and shared with later results.
 * - One remembered conversion per key (the query source), so a compaction's history does not evict the run's.
 */
import type { Message } from '../messages/types.ts';
import { MAX_CACHE_BREAKPOINTS } from './build-request.ts';
import { pushFinished, toPiece, type ApiMessageParam } from './to-api-messages.ts';

/** How many entries at the end of a handed-out list the caller may replace: one per cache breakpoint. */
export const REPLACEABLE_TURNS = MAX_CACHE_BREAKPOINTS;

/** A request's `historyRevision` with the run it belongs to (`ModelCallOptions.runToken`). */
export interface HistoryRevision {
  run: object;
  revision: number;
}

/**
 * History → API messages, like `toApiMessages`. The caller may replace entries among the last
 * `REPLACEABLE_TURNS` of the list it gets, never change a turn.
 */
export type ApiMessageConverter = (messages: readonly Message[], key?: string, revision?: HistoryRevision) => ApiMessageParam[];

interface Conversion {
  messages: readonly Message[];
  revision: HistoryRevision | undefined;
  /** The index of each merged turn's first message. */
  starts: number[];
  /** The finished turns that are sent (`pushFinished`: those left empty dropped, neighbours merged), and how many
   * of them the first i + 1 raw turns give. */
  sent: ApiMessageParam[];
  sentUpTo: number[];
  /** Whether raw turn i started a sent turn of its own (not dropped, not merged into the one before). */
  fresh: boolean[];
  /** The run `sent` itself was lent to (handed out without a copy), if any. */
  lentTo: object | undefined;
  /** The last entries of `sent` as handed out, to put back what the borrower replaced. */
  tail: ApiMessageParam[];
}

function emptyConversion(): Conversion {
  return { messages: [], revision: undefined, starts: [], sent: [], sentUpTo: [], fresh: [], lentTo: undefined, tail: [] };
}

export function createApiMessageConverter(): ApiMessageConverter {
  const last = new Map<string, Conversion>();
  return (messages, key = '', revision = undefined) => {
    const previous = last.get(key);
    // Forgotten first: the conversion reuses (and cuts) the previous one's arrays, so a throw leaves no memo.
    last.delete(key);
    const conversion = convertFrom(previous ?? emptyConversion(), messages, revision);
    last.set(key, conversion);
    if (revision === undefined) return conversion.sent.slice();
    conversion.lentTo = revision.run;
    conversion.tail = conversion.sent.slice(-REPLACEABLE_TURNS);
    return conversion.sent;
  };
}

function sameMessage(a: Message, b: Message): boolean {
  return a === b || (a.uuid === b.uuid && JSON.stringify(a) === JSON.stringify(b));
}

/** Whether `messages` is `previous.messages` grown, as the revision promises (checked at both ends). */
function onlyGrew(previous: Conversion, messages: readonly Message[], revision: HistoryRevision | undefined): boolean {
  const before = previous.messages;
  const promised = revision !== undefined && previous.revision !== undefined && revision.run === previous.revision.run && revision.revision === previous.revision.revision;
  if (!promised || messages.length < before.length) return false;
  return before.length === 0 || (messages[0] === before[0] && messages[before.length - 1] === before[before.length - 1]);
}

/** How many leading messages are unchanged since the previous conversion. */
function unchangedPrefix(previous: Conversion, messages: readonly Message[], revision: HistoryRevision | undefined): number {
  if (onlyGrew(previous, messages, revision)) return previous.messages.length;
  const common = Math.min(previous.messages.length, messages.length);
  let same = 0;
  while (same < common && sameMessage(messages[same], previous.messages[same])) same += 1;
  return same;
}

/**
 * The previous conversion's sent turns, cut to `length`, as this conversion's own list: in place, unless it is
 * lent to another run (whose request may still be in flight); with the borrower's replacements undone.
 */
function reusedSent(previous: Conversion, length: number, revision: HistoryRevision | undefined): ApiMessageParam[] {
  const { lentTo, tail } = previous;
  const lentLength = previous.sent.length;
  const sent = lentTo === undefined || lentTo === revision?.run ? previous.sent : previous.sent.slice(0, length);
  sent.length = length;
  const tailStart = lentLength - tail.length;
  for (let i = tailStart; i < length; i++) sent[i] = tail[i - tailStart];
  return sent;
}

function convertFrom(previous: Conversion, messages: readonly Message[], revision: HistoryRevision | undefined): Conversion {
  const same = unchangedPrefix(previous, messages, revision);
  // Keep the turns that start before the last unchanged message, minus the one holding it (it may grow).
  let kept = previous.starts.length;
  while (kept > 0 && previous.starts[kept - 1] > same - 1) kept -= 1;
  if (kept > 0) kept -= 1;
  // A cut must fall where a raw turn starts a sent turn: a later raw turn that merged back (its neighbour dropped)
  // sits inside the last kept sent turn, and converting it again would add its blocks twice.
  while (kept > 0 && kept < previous.fresh.length && !previous.fresh[kept]) kept -= 1;
  // Messages before the first kept turn's start that are unchanged were dropped (no piece): skip them too.
  const from = kept < previous.starts.length ? Math.min(previous.starts[kept], same) : 0;
  // The previous conversion is not used again: cut its index arrays in place instead of copying them.
  const { starts, sentUpTo, fresh } = previous;
  starts.length = kept;
  sentUpTo.length = kept;
  fresh.length = kept;
  const sent = reusedSent(previous, kept > 0 ? sentUpTo[kept - 1] : 0, revision);
  const finish = (turn: ApiMessageParam) => {
    fresh.push(pushFinished(sent, turn) === 'fresh');
    sentUpTo.push(sent.length);
  };
  let open: ApiMessageParam | null = null;
  for (let i = from; i < messages.length; i++) {
    const piece = toPiece(messages[i]);
    if (!piece) continue;
    if (open && open.role === piece.role) {
      (open.content as unknown[]).push(...piece.blocks);
      continue;
    }
    if (open) finish(open);
    open = piece.role === 'user' ? { role: 'user', content: [...piece.blocks] } : { role: 'assistant', content: [...piece.blocks] };
    starts.push(i);
  }
  if (open) finish(open);
  return { messages, revision, starts, sent, sentUpTo, fresh, lentTo: undefined, tail: [] };
}
