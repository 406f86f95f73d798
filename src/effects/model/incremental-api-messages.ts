/**
 * `toApiMessages` for a caller that converts a growing history again and again (one model call per turn): it
 * remembers the turns of the last conversion and converts again only from the first message that changed.
 *
 * Invariants:
 * - The result always equals `toApiMessages(messages)` (deep-equal; tested on random histories with edits).
 * - Reuse is decided by message identity: history is immutable, so an unchanged message is the same object. The
 *   scan for the first changed message compares references; everything from the turn that holds the message
 *   before it onwards is converted again (that turn may grow). For an appended turn that is O(new messages).
 *   A different object with the same uuid and the same JSON text also counts as unchanged: the reducer builds the
 *   user-context message (`withUserContext`, first in every request of a run with a user context) anew for each
 *   request, and judged by identity alone it would make every call convert the whole history again.
 * - Turns handed out are shared with later results: callers must not mutate them (copy a turn to change it).
 * - One remembered conversion per key (the query source), so a compaction's history does not evict the run's.
 */
import type { Message } from '../../messages/types.ts';
import { finishTurn, toPiece, type ApiMessageParam } from './to-api-messages.ts';

interface Conversion {
  messages: readonly Message[];
  /** The index of each merged turn's first message. */
  starts: number[];
  /** The finished turns that are sent (`finishTurn`, minus those left empty), and how many of them the first
   * i + 1 raw turns give. */
  sent: ApiMessageParam[];
  sentUpTo: number[];
}

export type ApiMessageConverter = (messages: readonly Message[], key?: string) => ApiMessageParam[];

export function createApiMessageConverter(): ApiMessageConverter {
  const last = new Map<string, Conversion>();
  return (messages, key = '') => {
    const previous = last.get(key);
    // Forgotten first: the conversion reuses (and cuts) the previous one's arrays, so a throw leaves no memo.
    last.delete(key);
    const conversion = convertFrom(previous ?? { messages: [], starts: [], sent: [], sentUpTo: [] }, messages);
    last.set(key, conversion);
    // A copy (pointers only): a request already built keeps its list when the next call cuts this one.
    return conversion.sent.slice();
  };
}

function sameMessage(a: Message, b: Message): boolean {
  return a === b || (a.uuid === b.uuid && JSON.stringify(a) === JSON.stringify(b));
}

function convertFrom(previous: Conversion, messages: readonly Message[]): Conversion {
  const common = Math.min(previous.messages.length, messages.length);
  let same = 0;
  while (same < common && sameMessage(messages[same], previous.messages[same])) same += 1;
  // Keep the turns that start before the last unchanged message, minus the one holding it (it may grow).
  let kept = previous.starts.length;
  while (kept > 0 && previous.starts[kept - 1] > same - 1) kept -= 1;
  if (kept > 0) kept -= 1;
  // Messages before the first kept turn's start that are unchanged were dropped (no piece): skip them too.
  const from = kept < previous.starts.length ? Math.min(previous.starts[kept], same) : 0;
  // The previous conversion is not used again: cut its arrays in place instead of copying them.
  const { starts, sent, sentUpTo } = previous;
  starts.length = kept;
  sentUpTo.length = kept;
  sent.length = kept > 0 ? sentUpTo[kept - 1] : 0;
  const finish = (turn: ApiMessageParam) => {
    const done = finishTurn(turn);
    if (done.content.length > 0) sent.push(done);
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
  return { messages, starts, sent, sentUpTo };
}
