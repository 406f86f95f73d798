import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MachineVersionMismatchError, ReplayDivergenceError, SessionLogParseError } from '../../../src/replay/errors.ts';
import { parseSessionLogText } from '../../../src/replay/parse-session-log.ts';
import { foldSessionLog, replay } from '../../../src/replay/replay.ts';
import { recordRun, reseal, toolTurns } from './fixtures.ts';

const lines = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');
const writeLines = (path: string, list: string[], trailingNewline = true) => writeFileSync(path, list.join('\n') + (trailingNewline ? '\n' : ''));

describe('record & replay', () => {
  it('replays a recorded run with no divergence, to the same terminal and emitted messages', async () => {
    const run = await recordRun(toolTurns(3));
    const result = replay(run.path);
    expect(result.terminal).toEqual(run.terminal);
    const live = run.items.filter((item) => item.type !== 'request_start' && item.type !== 'stream_event');
    expect(result.emitted).toEqual(live);
    expect(result.steps).toBe(lines(run.path).length);
    expect(result.truncated).toBeNull();
  });

  it('writes version 3: every event line the plain JSON of { kind, index, event, at, hash? }, one hash per commit', async () => {
    const run = await recordRun(toolTurns(2));
    const [header, ...events] = lines(run.path);
    const parsedHeader = JSON.parse(header);
    expect(parsedHeader.version).toBe(3);
    expect(Object.keys(parsedHeader).slice(-2)).toEqual(['at', 'initialHash']);
    expect(header).toBe(JSON.stringify(parsedHeader));
    const hashed = events.map((line) => {
      const parsed = JSON.parse(line);
      expect(line).toBe(JSON.stringify(parsed));
      const keys = Object.keys(parsed);
      expect([['kind', 'index', 'event', 'at'], ['kind', 'index', 'event', 'at', 'hash']]).toContainEqual(keys);
      return keys.includes('hash');
    });
    // The writer commits before every model call: the line of each step that asked for one closes a group.
    const steps = [...foldSessionLog(parseSessionLogText(readFileSync(run.path, 'utf8')))].slice(1);
    for (const [i, folded] of steps.entries()) {
      if (folded.effects.some((effect) => effect.type === 'call_model')) expect(hashed[i]).toBe(true);
    }
    expect(hashed.at(-1)).toBe(true);
    // Groups hold several lines (one hash for all of them), not one hash per line.
    expect(hashed.filter(Boolean).length).toBeLessThan(events.length / 2);
  });

  it('catches a tampered event in its commit group', async () => {
    const run = await recordRun(toolTurns(2));
    const list = lines(run.path);
    // A line inside a group (no hash of its own).
    const target = list.findIndex((l) => l.includes('"type":"tool_result"') && !l.includes('"hash":"'));
    expect(target).toBeGreaterThan(0);
    const tampered = JSON.parse(list[target]);
    tampered.event.message.message.content[0].content = 'something else';
    list[target] = JSON.stringify(tampered);
    writeLines(run.path, list);
    const closing = JSON.parse(list.slice(target).find((l) => l.includes('"hash":"'))!);
    let error: unknown;
    try {
      replay(run.path);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ReplayDivergenceError);
    const divergence = error as ReplayDivergenceError;
    expect(divergence.code).toBe('REPLAY_DIVERGENCE');
    // Found at the line that closes the tampered line's group, which the message names as a range.
    expect(divergence.index).toBe(closing.index);
    const range = /events (\d+)-(\d+)/.exec(divergence.diff);
    expect(range).not.toBeNull();
    expect(Number(range![1])).toBeLessThanOrEqual(tampered.index);
    expect(Number(range![2])).toBe(closing.index);
    expect(divergence.expected.hash).toBe(closing.hash);
    expect(divergence.actual.hash).not.toBe(closing.hash);
  });

  it('reports a state-changing tamper with a readable diff', async () => {
    const run = await recordRun(toolTurns(2));
    const list = lines(run.path);
    const target = list.findIndex((l) => l.includes('"type":"tools_finished"'));
    const tampered = JSON.parse(list[target]);
    tampered.event = { type: 'abort', reason: 'user_cancel' };
    list[target] = JSON.stringify(tampered);
    writeLines(run.path, list);
    expect(() => replay(run.path)).toThrowError(expect.objectContaining({ index: tampered.index, diff: expect.stringContaining('v:') }));
  });

  it('reports a truncated last line and replays everything before it', async () => {
    const run = await recordRun(toolTurns(2));
    const list = lines(run.path);
    const last = list.pop() as string;
    writeLines(run.path, [...list, last.slice(0, Math.floor(last.length / 2))], false);
    const result = replay(run.path);
    expect(result.truncated?.line).toBe(list.length + 1);
    expect(result.steps).toBe(list.length);
    expect(result.terminal).toBeNull();
  });

  it('fails on a malformed line with the file, the line number and what was expected', async () => {
    const run = await recordRun(toolTurns(2));
    const list = lines(run.path);
    list[3] = '{"kind":"event","index":3,"event":{"type":"no_such_event"},"hash":"x","at":{"v":"x","turn":1,"msgs":1,"seq":1}}';
    writeLines(run.path, list);
    expect(() => replay(run.path)).toThrowError(SessionLogParseError);
    expect(() => replay(run.path)).toThrowError(`${run.path}:4: expected an event line`);
    list[3] = 'not json at all';
    writeLines(run.path, list);
    expect(() => replay(run.path)).toThrowError(`${run.path}:4: expected one JSON object per line`);
  });

  it('refuses a log from another statechart unless version skew is allowed', async () => {
    const run = await recordRun(toolTurns(1));
    const list = lines(run.path);
    const header = JSON.parse(list[0]);
    header.machineHash = '0000000000000000';
    // A log really recorded by another statechart has a consistent chain: seal the edited one again.
    writeLines(run.path, reseal([JSON.stringify(header), ...list.slice(1)]));
    expect(() => replay(run.path)).toThrowError(MachineVersionMismatchError);
    expect(() => replay(run.path)).toThrowError(expect.objectContaining({ code: 'MACHINE_VERSION_MISMATCH', recorded: '0000000000000000' }));
    // Allowed: the chain is still verified (it covers the recorded fingerprint, not the current one).
    expect(replay(run.path, { allowVersionSkew: true }).terminal).toEqual(run.terminal);
  });

  it('grows linearly: bytes per event do not grow with the session', async () => {
    const perEvent = async (turns: number) => {
      const run = await recordRun(toolTurns(turns));
      const [header, ...events] = lines(run.path);
      return { bytesPerEvent: events.join('\n').length / events.length, events: events.length, header: header.length };
    };
    const short = await perEvent(5);
    const long = await perEvent(80);
    expect(long.events).toBeGreaterThan(short.events * 10);
    expect(long.bytesPerEvent).toBeLessThan(short.bytesPerEvent * 1.15);
  });
});
