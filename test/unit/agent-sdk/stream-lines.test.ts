/**
 * `streamLines` gives a stream's lines as readline does (`createInterface({ input, crlfDelay: Infinity })`, the way
 * the headless mode read its stdin before): each case is fed to both, in the same chunks, and both must give the
 * same lines, end the same way and fail with the same error.
 */
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { streamLines } from '../../../src/agent-sdk/stream-lines.ts';

type Outcome = { lines: string[]; error?: unknown };

/** Feeds `chunks` (one a macrotask), then ends the stream or fails it with `error`; what `lines` gave. */
async function collect(lines: (input: PassThrough) => AsyncIterable<string>, chunks: Buffer[], error?: Error): Promise<Outcome> {
  const input = new PassThrough();
  const out: Outcome = { lines: [] };
  const reading = (async () => {
    try {
      for await (const line of lines(input)) out.lines.push(line);
    } catch (caught) {
      out.error = caught;
    }
  })();
  for (const chunk of chunks) {
    input.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (error) input.destroy(error);
  else input.end();
  await reading;
  return out;
}

const viaReadline = (input: PassThrough) => createInterface({ input, crlfDelay: Infinity });

async function expectSameAsReadline(chunks: Buffer[], error?: Error) {
  const ours = await collect(streamLines, chunks, error);
  const theirs = await collect(viaReadline, chunks, error);
  expect(ours).toEqual(theirs);
  if (error) expect(ours.error).toBe(error);
}

/** Every way to cut `text` in two, and in three at a few places. */
function cuts(text: string): Buffer[][] {
  const bytes = Buffer.from(text);
  const out: Buffer[][] = [[bytes]];
  for (let i = 1; i < bytes.length; i++) out.push([bytes.subarray(0, i), bytes.subarray(i)]);
  for (let i = 1; i < bytes.length; i += 3) for (let j = i + 1; j < bytes.length; j += 4) out.push([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]);
  return out;
}

const TEXTS = [
  '{"a":1}\n{"b":2}\n',
  '{"a":1}\r\n{"b":2}\r\n',
  'one\rtwo\r\nthree\n\nfour',
  'trailing return\r',
  '\r\n\r\n\n\r\r',
  'no end at all',
  '',
  '\n',
  'caf\u00e9 \ud83d\ude00\r\n\u00fcber\rend',
  '{"text":"a\\nb"}\n  \n{"x":"\u2028"}\n',
];

describe('streamLines', () => {
  for (const text of TEXTS) {
    it(`gives readline's lines for ${JSON.stringify(text)}, however the bytes are cut`, async () => {
      for (const chunks of cuts(text)) await expectSameAsReadline(chunks);
    });
  }

  it('drops an incomplete UTF-8 character at the end, as readline does', async () => {
    const bytes = Buffer.from('ok\n\ud83d\ude00');
    await expectSameAsReadline([bytes.subarray(0, bytes.length - 1)]);
  });

  it('a \\r that ends a chunk, then an empty chunk, then \\n: the same lines as readline', async () => {
    await expectSameAsReadline([Buffer.from('a\r'), Buffer.alloc(0), Buffer.from('\nb\n')]);
  });

  it("gives the lines read before the stream's error, then rejects with that error", async () => {
    await expectSameAsReadline([Buffer.from('{"a":1}\n{"b"'), Buffer.from(':2}\npartial')], new Error('stdin failed'));
    await expectSameAsReadline([], new Error('at once'));
  });

  it('pauses the stream while more than 1024 lines wait, and reads on once they are taken', async () => {
    const input = new PassThrough();
    const lines = streamLines(input);
    input.write('x\n'.repeat(1100));
    await new Promise((resolve) => setImmediate(resolve));
    expect(input.isPaused()).toBe(true);
    input.end('last\n');
    const seen: string[] = [];
    for await (const line of lines) seen.push(line);
    expect(seen).toHaveLength(1101);
    expect(seen.at(-1)).toBe('last');
  });

  it('matches readline on a long random run of chunks (seeded)', async () => {
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const alphabet = ['a', '{', '"', '\n', '\r', '\r\n', '\u00e9', '\ud83d\ude00', ' '];
    for (let round = 0; round < 40; round++) {
      const text = Array.from({ length: 60 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      const bytes = Buffer.from(text);
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; ) {
        const size = 1 + Math.floor(random() * 7);
        chunks.push(bytes.subarray(at, at + size));
        at += size;
      }
      await expectSameAsReadline(chunks);
    }
  });
});
