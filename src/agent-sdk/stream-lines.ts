/**
 * The lines of a byte stream, as `for await (const line of readline.createInterface({ input, crlfDelay: Infinity }))`
 * gives them, without loading node:readline: a headless process reads its stdin this way and nothing else of
 * readline (whose modules cost a start-up about 1 ms of CPU).
 *
 * Invariants (each is readline's, checked against it by test/unit/agent-sdk/stream-lines.test.ts):
 * - A line ends at `\n`, `\r\n` or a lone `\r`; a `\r` that ends a chunk and a `\n` that starts the next are one end.
 * - Bytes are decoded as UTF-8 across chunk boundaries; an incomplete character left at the end is dropped.
 * - At the end of the stream, a last line without its end is given if it is not empty.
 * - Lines arrive in order; the lines already read are given before the stream's error, which then rejects.
 * - More than 1024 lines waiting pause the stream until they are read (backpressure).
 * Leaving a loop over it early (not something readline is matched on here) removes its listeners and pauses the stream.
 */
import { StringDecoder } from 'node:string_decoder';

const LINE_END = /\r?\n|\r(?!\n)/g;
const HIGH_WATERMARK = 1024;

type Pending = { resolve: (result: IteratorResult<string>) => void; reject: (error: unknown) => void };

/** The lines of `input` (see the invariants above). */
export function streamLines(input: NodeJS.ReadableStream): AsyncIterableIterator<string> {
  const decoder = new StringDecoder('utf8');
  const waiting: string[] = [];
  const pending: Pending[] = [];
  let buffer: string | null = null;
  let sawReturn = false;
  let paused = false;
  let finished = false;
  let failure: { error: unknown } | null = null;

  const done = (): IteratorResult<string> => ({ value: undefined, done: true });
  const give = (line: string) => {
    const next = pending.shift();
    if (next) next.resolve({ value: line, done: false });
    else if (waiting.push(line) > HIGH_WATERMARK && !paused) {
      paused = true;
      input.pause();
    }
  };
  const finish = () => {
    detach();
    finished = true;
    for (const next of pending.splice(0)) next.resolve(done());
  };
  const onData = (chunk: Buffer | string) => {
    let text = decoder.write(chunk as Buffer);
    if (sawReturn) {
      if (text.codePointAt(0) === 10) text = text.slice(1);
      sawReturn = false;
    }
    LINE_END.lastIndex = 0;
    if (!LINE_END.test(text)) {
      if (text) buffer = buffer ? buffer + text : text;
      return;
    }
    if (buffer) text = buffer + text;
    buffer = null;
    sawReturn = text.endsWith('\r');
    LINE_END.lastIndex = 0;
    let start = 0;
    for (let match = LINE_END.exec(text); match !== null; match = LINE_END.exec(text)) {
      give(text.slice(start, match.index));
      start = LINE_END.lastIndex;
    }
    buffer = text.slice(start);
  };
  const onEnd = () => {
    if (buffer) give(buffer);
    finish();
  };
  const onError = (error: unknown) => {
    const next = pending.shift();
    if (next) next.reject(error);
    else failure = { error };
    finish();
  };
  const detach = () => {
    input.removeListener('data', onData);
    input.removeListener('end', onEnd);
    input.removeListener('error', onError);
  };
  input.on('error', onError);
  input.on('data', onData);
  input.on('end', onEnd);
  input.resume();

  return {
    next() {
      const line = waiting.shift();
      if (line !== undefined) {
        if (paused && waiting.length < 1) {
          paused = false;
          input.resume();
        }
        return Promise.resolve({ value: line, done: false });
      }
      if (failure) {
        const { error } = failure;
        failure = null;
        return Promise.reject(error);
      }
      if (finished) return Promise.resolve(done());
      return new Promise((resolve, reject) => pending.push({ resolve, reject }));
    },
    return() {
      // As readline's interface closes when a loop over it is left: no more reading.
      finish();
      input.pause();
      return Promise.resolve(done());
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
