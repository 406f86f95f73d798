/**
 * `replay()`'s one pass over log text checks every commit group's hash (after the fold, back to back: `groupsHashTo`
 * in src/replay/replay.ts): a log whose groups all hash right but one, first, middle or last, is never replayed by
 * that pass, and `replay()` throws the slow path's divergence at that group, whether the hash or the group's bytes
 * were edited.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ReplayDivergenceError } from '../../../src/replay/errors.ts';
import { parseSessionLogText } from '../../../src/replay/parse-session-log.ts';
import { replay, replayLogText } from '../../../src/replay/replay.ts';
import { recordRun, toolTurns } from './fixtures.ts';

/** The error `replay()` throws, as a plain record (every own member, the message included). */
function errorOf(run: () => unknown): Record<string, unknown> {
  try {
    run();
  } catch (error) {
    const e = error as Error;
    return { ...e, name: e.name, message: e.message };
  }
  throw new Error('expected a divergence');
}

describe('replay() of log text: every group hash checked', () => {
  it('refuses an edited hash or an edited byte in the first, a middle or the last group', async () => {
    const text = readFileSync((await recordRun(toolTurns(4, 'ping'))).path, 'utf8');
    expect(replayLogText(text)).not.toBeNull();
    const lines = text.trimEnd().split('\n');
    const hashed = lines.flatMap((line, i) => (i > 0 && /,"hash":"[0-9a-f]{16}"\}$/.test(line) ? [i] : []));
    expect(hashed.length).toBeGreaterThan(3);
    for (const i of [hashed[0], hashed[Math.floor(hashed.length / 2)], hashed[hashed.length - 1]]) {
      const flip = (line: string) => line.replace(/("hash":"[0-9a-f]{15})([0-9a-f])"\}$/, (_, head: string, last: string) => `${head}${last === '0' ? '1' : '0'}"}`);
      const edits = [flip(lines[i]), lines[i].replace('"type":"', '"type" :"')];
      for (const line of edits) {
        expect(line).not.toBe(lines[i]);
        const edited = `${[...lines.slice(0, i), line, ...lines.slice(i + 1)].join('\n')}\n`;
        expect(replayLogText(edited)).toBeNull();
        const error = errorOf(() => replay({ text: edited }));
        expect(error.name).toBe(ReplayDivergenceError.name);
        expect(error).toEqual(errorOf(() => replay(parseSessionLogText(edited))));
        expect(error.index).toBe(JSON.parse(lines[i]).index);
      }
    }
  });
});
