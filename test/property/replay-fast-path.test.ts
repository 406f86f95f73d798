/**
 * `replay()` of log text goes one pass over the text (`replayLogText`: each line's envelope read by
 * `scanEventLine`, its event parsed and folded at once) and falls back to parsing then folding whenever that pass
 * gives up. These properties hold the two paths to each other: on recorded logs the fast path is taken and gives
 * the slow path's result; on logs edited at random (a character replaced, removed or added, a line removed,
 * duplicated or swapped, a blank line, the text cut short or after a line, a hash removed, a digest changed, lines
 * resealed so that their hashes match their edited bytes), `replay()` gives exactly what parsing then folding
 * gives, the same result or the same error, and the fast path never returns a result where the slow path fails.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSessionLogText } from '../../src/replay/parse-session-log.ts';
import { initialState, step } from '../../src/reducer/step.ts';
import { replay, replayConfig, replayLogText, type ReplayOptions, type ReplayResult } from '../../src/replay/replay.ts';
import { MAX_GROUP_LINES } from '../../src/replay/session-log-schema.ts';
import { recordRun, reseal, toolTurns } from '../unit/replay/fixtures.ts';
import { propertyOptions } from './settings.ts';

const V2_FIXTURE = new URL('../unit/replay/fixtures/session-log-v2.jsonl', import.meta.url);

type Outcome = { ok: true; result: ReplayResult } | { ok: false; error: Record<string, unknown> };

function outcomeOf(run: () => ReplayResult): Outcome {
  try {
    return { ok: true, result: run() };
  } catch (error) {
    const e = error as Error;
    // Every own member (code, index, expected, actual, diff, file, line, …) besides the name and the message.
    return { ok: false, error: { ...e, name: e.name, message: e.message, constructor: e.constructor.name } };
  }
}

/** The slow path: the whole text parsed first (its errors first), then folded. */
const slow = (text: string, options: ReplayOptions) => outcomeOf(() => replay(parseSessionLogText(text), options));

function expectSamePaths(text: string, options: ReplayOptions): void {
  const expected = slow(text, options);
  expect(outcomeOf(() => replay({ text }, options))).toEqual(expected);
  const fast = replayLogText(text, options);
  if (fast !== null) expect({ ok: true, result: fast }).toEqual(expected);
}

interface Base {
  name: string;
  text: string;
  options: ReplayOptions;
}

const bases: Base[] = [];

beforeAll(async () => {
  const v3 = readFileSync((await recordRun(toolTurns(3))).path, 'utf8');
  const v3Text = readFileSync((await recordRun(toolTurns(2, 'naïve → ünïcode text "quoted" \\ back'))).path, 'utf8');
  // Tool results as real tools give them (lines, tabs, quotes, a backslash, non-ASCII, an error), read by the
  // template readers of event-text.ts.
  const lines = ['line 1\n\t"two" \\ ✓ naïve', 'no such file: "x.txt"\n', '{"not":"json"}'];
  const v3Lines = readFileSync((await recordRun({ model: toolTurns(3).model, tools: [{ name: 'Read', results: lines.map((content, i) => ({ content, isError: i === 1 })) }] })).path, 'utf8');
  const v2 = readFileSync(V2_FIXTURE, 'utf8');
  bases.push(
    { name: 'v3', text: v3, options: {} },
    { name: 'v3 unverified', text: v3, options: { verify: false } },
    { name: 'v3 non-ASCII', text: v3Text, options: {} },
    { name: 'v3 multi-line and error results', text: v3Lines, options: {} },
    { name: 'v3 resealed, one group per line', text: `${reseal(v3.trimEnd().split('\n')).join('\n')}\n`, options: {} },
    { name: 'v2', text: v2, options: { allowVersionSkew: true } },
    { name: 'v2 unverified', text: v2, options: { allowVersionSkew: true, verify: false } },
  );
});

describe('replay() of log text: the one-pass fast path', () => {
  it('is taken on recorded logs of versions 2 and 3 and gives what parsing then folding gives', () => {
    for (const base of bases) {
      const fast = replayLogText(base.text, base.options);
      expect(fast, base.name).not.toBeNull();
      expect(fast).toEqual(replay(parseSessionLogText(base.text), base.options));
      // Without the last newline too.
      expect(replayLogText(base.text.trimEnd(), base.options)).toEqual(fast);
    }
  });

  it(`refuses, as the parser does, ${MAX_GROUP_LINES} lines without a hash even when a hashed line follows them`, () => {
    const [header, ...events] = bases[0].text.trimEnd().split('\n');
    const template = JSON.parse(events.find((line) => line.includes('"type":"tools_finished"'))!) as Record<string, unknown>;
    delete template.hash;
    const filler = Array.from({ length: MAX_GROUP_LINES + 1 }, (_, i) => ({ ...template, index: i + 1 }));
    const last = JSON.stringify({ ...filler.pop(), hash: '0123456789abcdef' });
    const text = `${[header, ...filler.map((line) => JSON.stringify(line)), last].join('\n')}\n`;
    for (const options of [{}, { verify: false }]) {
      expect(replayLogText(text, options)).toBeNull();
      expect(() => replay({ text }, options)).toThrowError(new RegExp(`expected a hash at least every ${MAX_GROUP_LINES} event lines`));
    }
  });

  it('refuses a digest whose state value differs from the replayed one by one character, a dot included', () => {
    const lines = bases[0].text.trimEnd().split('\n');
    const i = lines.findIndex((line, n) => n > 0 && /"v":"[^"]*\.[^"]*"/.test(line));
    expect(i).toBeGreaterThan(0);
    for (const [from, to] of [[/("v":"[^"]*)\.([^"]*")/, '$1x$2'], [/("v":"[^"]*)[^"]"/, '$1Q"'], [/("v":"[^"]*)"/, '$1Q"']] as const) {
      const edited = [...lines];
      edited[i] = edited[i].replace(from, to);
      expect(edited[i]).not.toBe(lines[i]);
      const text = `${reseal(edited).join('\n')}\n`;
      expect(replayLogText(text)).toBeNull();
      expect(() => replay({ text })).toThrowError(/diverged|digest|differ/i);
    }
  });

  it('returns results that later replays never change, equal to a fold of step() (its history grows in place)', () => {
    for (const base of bases) {
      const first = replayLogText(base.text, base.options) as ReplayResult;
      const kept = structuredClone(first);
      const second = replayLogText(base.text, base.options) as ReplayResult;
      expect(first).toEqual(kept);
      expect(second.finalState.context.messages).not.toBe(first.finalState.context.messages);
      const log = parseSessionLogText(base.text);
      const config = replayConfig(log.header, base.options.config);
      let state = initialState(log.header.params, config).state;
      for (const line of log.events) state = step(state, line.event, config).state;
      expect(first.finalState, base.name).toEqual(state);
    }
  });

  it('gives the result or the error of parsing then folding on logs edited at random', () => {
    const CHARS = ['"', '}', '{', ',', ' ', '0', '1', '9', 'a', 'f', 'F', 'x', '\\', '\n', ':', '-', '.', 'é', '\u0000', '\r'];
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), char: fc.constantFrom(...CHARS) }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), char: fc.constantFrom(...CHARS) }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('drop line' as const), line: fc.nat() }),
      fc.record({ kind: fc.constant('duplicate line' as const), line: fc.nat() }),
      fc.record({ kind: fc.constant('swap lines' as const), line: fc.nat() }),
      fc.record({ kind: fc.constant('blank line' as const), line: fc.nat() }),
      fc.record({ kind: fc.constant('digest' as const), line: fc.nat(), member: fc.constantFrom('turn', 'msgs', 'seq', 'v'), reseal: fc.boolean() }),
      fc.record({ kind: fc.constant('resealed edit' as const), at: fc.nat(), char: fc.constantFrom(...CHARS) }),
      fc.record({ kind: fc.constant('cut after line' as const), line: fc.nat(), newline: fc.boolean() }),
      fc.record({ kind: fc.constant('drop hash' as const), line: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.nat(), fc.array(edit, { minLength: 1, maxLength: 3 }), (which, edits) => {
        const base = bases[which % bases.length];
        let text = base.text;
        for (const e of edits) text = applyEdit(text, e);
        expectSamePaths(text, base.options);
      }),
      propertyOptions(400),
    );
  });
});

type Edit =
  | { kind: 'replace' | 'insert' | 'resealed edit'; at: number; char: string }
  | { kind: 'delete' | 'cut'; at: number }
  | { kind: 'drop line' | 'duplicate line' | 'swap lines' | 'blank line' | 'drop hash'; line: number }
  | { kind: 'cut after line'; line: number; newline: boolean }
  | { kind: 'digest'; line: number; member: string; reseal: boolean };

function applyEdit(text: string, e: Edit): string {
  const lines = text.split('\n');
  switch (e.kind) {
    case 'replace': {
      const at = e.at % Math.max(1, text.length);
      return text.slice(0, at) + e.char + text.slice(at + 1);
    }
    case 'insert': {
      const at = e.at % (text.length + 1);
      return text.slice(0, at) + e.char + text.slice(at);
    }
    case 'delete': {
      const at = e.at % Math.max(1, text.length);
      return text.slice(0, at) + text.slice(at + 1);
    }
    case 'cut':
      return text.slice(0, e.at % (text.length + 1));
    case 'drop line':
      lines.splice(e.line % lines.length, 1);
      return lines.join('\n');
    case 'duplicate line': {
      const i = e.line % lines.length;
      lines.splice(i, 0, lines[i]);
      return lines.join('\n');
    }
    case 'swap lines': {
      const i = e.line % Math.max(1, lines.length - 1);
      [lines[i], lines[i + 1]] = [lines[i + 1] ?? '', lines[i]];
      return lines.join('\n');
    }
    case 'cut after line': {
      const kept = lines.slice(0, 1 + (e.line % lines.length)).join('\n');
      return e.newline ? `${kept}\n` : kept;
    }
    case 'drop hash': {
      const i = e.line % lines.length;
      lines[i] = lines[i].replace(/,"hash":"[0-9a-f]*"/, '');
      return lines.join('\n');
    }
    case 'blank line':
      lines.splice(e.line % (lines.length + 1), 0, '');
      return lines.join('\n');
    case 'digest': {
      const i = 1 + (e.line % Math.max(1, lines.length - 1));
      if (lines[i] === undefined) return text;
      lines[i] = e.member === 'v'
        ? lines[i].replace(/"v":"/, '"v":"x')
        : lines[i].replace(new RegExp(`"${e.member}":(\\d+)`), (_, n: string) => `"${e.member}":${Number(n) + 1}`);
      return e.reseal ? resealed(lines) : lines.join('\n');
    }
    case 'resealed edit': {
      const edited = applyEdit(text, { kind: 'replace', at: e.at, char: e.char }).split('\n');
      return resealed(edited);
    }
  }
}

/** The lines with their hashes recomputed, when every non-blank line is still a JSON object (else as they are). */
function resealed(lines: string[]): string {
  const list = lines.filter((line) => line !== '');
  try {
    return `${reseal(list).join('\n')}\n`;
  } catch {
    return lines.join('\n');
  }
}
