/**
 * Reads the envelope of a version-2 or -3 event line without `JSON.parse`, in the layout the recorder writes, so
 * that `replay()` parses the event's own text alone and builds none of the line's other objects (`replayLogText`
 * in `replay.ts`):
 *
 *   {"kind":"event","index":<n>,"event":<the event>,"at":{"v":"<value>","turn":<n>,"msgs":<n>,"seq":<n>}}
 *   {"kind":"event","index":<n>,"event":<the event>,"at":{…},"hash":"<16 hex digits>"}
 *
 * Invariants:
 * - It accepts exactly that layout (no spaces, these members in this order, counts written as plain integers,
 *   a value without escapes, a hash of 16 lowercase hex digits) and answers false for anything else; the caller
 *   then reads the log the slow way, which says what is wrong or reads the unusual spelling.
 * - When it accepts and the event's text is JSON, the whole line is JSON (the fixed text around a JSON value) and
 *   `JSON.parse` of the line gives exactly these members, with `event` equal to the parse of the event's text. So
 *   the line's envelope passes `isEventEnvelope` (an integer index, `at` with a string and three numbers, a
 *   string hash) and only the event remains to be checked.
 */

/** Where the parts of one line are (offsets into the text) and the numbers it holds. Filled by `scanEventLine`. */
export interface EventLineFields {
  index: number;
  eventStart: number;
  eventEnd: number;
  /** The state value of `at`, without its quotes: text[valueStart, valueEnd). */
  valueStart: number;
  valueEnd: number;
  turn: number;
  msgs: number;
  seq: number;
  /** Where the 16 digits of the line's hash start; -1 when the line has no hash. */
  hashStart: number;
  /** Where the `,"hash":"` member starts (the end of the bytes a hash covers); the line's end when it has none. */
  hashedEnd: number;
}

/** Fields to fill, one object per reader (a literal: one shape for every line). */
export function eventLineFields(): EventLineFields {
  return { index: 0, eventStart: 0, eventEnd: 0, valueStart: 0, valueEnd: 0, turn: 0, msgs: 0, seq: 0, hashStart: -1, hashedEnd: 0 };
}

/**
 * The line up to the event, and `at` with the hash to the line's end, as sticky regular expressions: irregexp
 * matched these literals in about half the time `startsWith` or a loop of `charCodeAt` took (3.1 against 5.3 ms
 * per 10,000 lines). Counts are plain integers of at most 15 digits (a longer one could lose precision: such a line
 * goes the slow way). Their `lastIndex` is set right before each use, so sharing them is safe.
 */
const LINE_START = /\{"kind":"event","index":[1-9][0-9]{0,14},"event":/y;
const LINE_END = /,"at":\{"v":"[^"\\\u0000-\u001f]*","turn":(?:0|[1-9][0-9]{0,14}),"msgs":(?:0|[1-9][0-9]{0,14}),"seq":(?:0|[1-9][0-9]{0,14})\}(?:,"hash":"[0-9a-f]{16}")?\}/y;
const AT_MEMBER = ',"at":{"v":"';
/** `{"kind":"event","index":`. */
const INDEX_OFFSET = 24;
/** `,"event":`. */
const EVENT_MEMBER_LENGTH = 9;
/** `,"hash":"` + 16 digits + `"}`. */
const HASH_TAIL = 27;
const HASH_DIGITS_FROM_END = 18;

const QUOTE = 0x22;
const ZERO = 0x30;

/** The digits text[from, to) (already matched as a plain integer) as a number. */
function integerIn(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) value = value * 10 + (text.charCodeAt(i) - ZERO);
  return value;
}

/** The start of the run of digits that ends just before `end`. */
function digitsBefore(text: string, end: number): number {
  let i = end;
  for (let code = text.charCodeAt(i - 1); code >= ZERO && code <= ZERO + 9; code = text.charCodeAt(i - 1)) i -= 1;
  return i;
}

/**
 * Reads the line text[start, end) (without its newline) into `out`; false when it is not in the recorder's exact
 * layout (see the module comment). The event's text is text[out.eventStart, out.eventEnd), not checked here.
 */
export function scanEventLine(text: string, start: number, end: number, out: EventLineFields): boolean {
  LINE_START.lastIndex = start;
  if (!LINE_START.test(text)) return false;
  const eventStart = LINE_START.lastIndex;
  // `at` is the last member but the hash. Read backwards from its closing brace, as the layout has it: the counts
  // (`,"seq":`, `,"msgs":`, `","turn":` before each), then the value, which holds no quote. `LINE_END` then holds
  // the whole tail to that layout: where it matches from, to the line's end, is where `at` starts (the layout read
  // backwards has one start), and no `,"at":{"v":"` follows it. A backward search for that text cost more than all this.
  const hashed = text.charCodeAt(end - 2) === QUOTE;
  const atEnd = hashed ? end - HASH_TAIL : end - 1;
  const seqStart = digitsBefore(text, atEnd - 1);
  const msgsStart = digitsBefore(text, seqStart - 7);
  const turnStart = digitsBefore(text, msgsStart - 8);
  const eventEnd = text.lastIndexOf('"', turnStart - 10) - AT_MEMBER.length + 1;
  if (eventEnd <= eventStart) return false;
  LINE_END.lastIndex = eventEnd;
  if (!LINE_END.test(text) || LINE_END.lastIndex !== end) return false;
  out.index = integerIn(text, start + INDEX_OFFSET, eventStart - EVENT_MEMBER_LENGTH);
  out.eventStart = eventStart;
  out.eventEnd = eventEnd;
  out.valueStart = eventEnd + AT_MEMBER.length;
  out.valueEnd = turnStart - 9;
  out.turn = integerIn(text, turnStart, msgsStart - 8);
  out.msgs = integerIn(text, msgsStart, seqStart - 7);
  out.seq = integerIn(text, seqStart, atEnd - 1);
  out.hashStart = hashed ? end - HASH_DIGITS_FROM_END : -1;
  out.hashedEnd = hashed ? atEnd : end;
  return true;
}
