/**
 * Version-3 logs across recorder changes: `fixtures/session-log-v3.jsonl` was recorded by the tree before round
 * 10's recorder and interpreter changes (ea889c3, `log-v3-compat-script.ts`). It replays here with every hash
 * checked, and the same run recorded now gives the same bytes: the same event lines, the same commit groups, the
 * same hashes (under the header of now: its `createdAt`, machine hash and version are the day's). A log written by
 * either recorder therefore verifies under the other's replay.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { replay } from '../../../src/replay/replay.ts';
import { headerHash } from '../../../src/replay/session-recorder.ts';
import { lineHash } from '../../../src/replay/stable-hash.ts';
import { recordCompatRun } from './log-v3-compat-script.ts';
import { tempLogPath } from './fixtures.ts';

const FIXTURE = new URL('./fixtures/session-log-v3.jsonl', import.meta.url);
const ROOT = new URL('../../..', import.meta.url).pathname.replace(/\/$/, '');

const HASH = ',"hash":"';
const INITIAL_HASH = ',"initialHash":"';

/**
 * `header` followed by `events`' lines, their hash chain computed again from `header`'s bytes as a version-3
 * recorder makes it: one hash per commit group, on its last line (the groups are where `events` carry a hash).
 */
function sealedUnder(header: string, events: readonly string[]): string {
  const headerPrefix = header.slice(0, header.lastIndexOf(INITIAL_HASH));
  let previous = headerHash(3, headerPrefix);
  let text = `${headerPrefix}${INITIAL_HASH}${previous}"}\n`;
  let unhashed = '';
  for (const line of events) {
    const at = line.lastIndexOf(HASH);
    if (at === -1) {
      unhashed += `${line}\n`;
      continue;
    }
    const prefix = line.slice(0, at);
    previous = lineHash(previous, unhashed + prefix);
    text += `${unhashed}${prefix}${HASH}${previous}"}\n`;
    unhashed = '';
  }
  return text + unhashed;
}

describe('version 3 logs across recorder changes', () => {
  const fixture = readFileSync(FIXTURE, 'utf8');
  const [fixtureHeader, ...fixtureEvents] = fixture.trimEnd().split('\n');

  it('the fixture holds commit groups of several lines and a redacted secret', () => {
    expect(JSON.parse(fixtureHeader).version).toBe(3);
    const hashed = fixtureEvents.filter((line) => line.includes(HASH)).length;
    expect(hashed).toBeGreaterThan(1);
    expect(hashed).toBeLessThan(fixtureEvents.length / 2);
    expect(fixture).toContain('[REDACTED]');
    expect(fixture).not.toContain('sk-ant-api03');
    // The helper makes the old recorder's bytes from its own header: it computes the chain as a recorder does.
    expect(sealedUnder(fixtureHeader, fixtureEvents)).toBe(fixture);
  });

  it('the log recorded before replays now with every hash checked', () => {
    const result = replay({ text: fixture, file: 'session-log-v3.jsonl' }, { allowVersionSkew: true });
    expect(result.terminal).toEqual({ reason: 'completed' });
    expect(result.steps).toBe(fixtureEvents.length + 1);
  });

  it('recording the same run now gives the same bytes and hashes', async () => {
    const path = tempLogPath('compat.jsonl');
    await recordCompatRun(ROOT, path);
    const now = readFileSync(path, 'utf8');
    const nowHeader = now.slice(0, now.indexOf('\n'));
    expect(now).toBe(sealedUnder(nowHeader, fixtureEvents));
    expect(replay({ text: now, file: 'compat.jsonl' }).terminal).toEqual({ reason: 'completed' });
  });
});
