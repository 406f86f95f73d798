/**
 * Session log versions: version 3 (written now) replays what was recorded, and any edited byte of it is caught;
 * version 1 and version 2 logs (fixtures recorded by those recorders) still verify, and resume continues each in
 * its own version.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parseSessionLogText } from '../../../src/replay/parse-session-log.ts';
import { replay } from '../../../src/replay/replay.ts';
import { resumeFromLog } from '../../../src/replay/resume.ts';
import { scriptedModelCaller, scriptedToolRuntime } from '../../../src/replay/scripted-deps.ts';
import { ReplayDivergenceError } from '../../../src/replay/errors.ts';
import { recordRun, tempLogPath, toolTurns } from './fixtures.ts';

const V1_FIXTURE = new URL('./fixtures/session-log-v1.jsonl', import.meta.url);
const V2_FIXTURE = new URL('./fixtures/session-log-v2.jsonl', import.meta.url);
const lines = (text: string) => text.trimEnd().split('\n');

/** The version-1 fixture's script: 3 Read turns (one result holds an API key), then a text reply. */
function v1Script() {
  const script = toolTurns(3);
  script.tools[0].results = [{ content: 'part 1: key sk-ant-api03-abcdefghijklmnop' }, { content: 'part 2: internal-id-42' }, { content: 'part 3' }];
  script.model[3] = { ...script.model[3], usage: { input_tokens: 400, output_tokens: 5 } };
  return script;
}

/**
 * Copies a fixture, cuts it right after the second reply finished (its tool had not run: a crash), resumes it with
 * the rest of the fixture's script, and returns the lines before and after.
 */
async function resumeCutFixture(fixture: URL, name: string): Promise<{ path: string; cut: number; after: string[] }> {
  const path = tempLogPath(name);
  copyFileSync(fixture, path);
  const list = lines(readFileSync(path, 'utf8'));
  let seen = 0;
  const cut = list.findIndex((line) => line.includes('"type":"model_done"') && ++seen === 2);
  writeFileSync(path, `${list.slice(0, cut + 1).join('\n')}\n`);
  const script = v1Script();
  const resumed = resumeFromLog(path, {
    allowVersionSkew: true,
    tools: scriptedToolRuntime([{ name: 'Read', results: script.tools[0].results.slice(1) }]),
    deps: { callModel: scriptedModelCaller(script.model.slice(2)), newId: (() => { let n = 0; return () => `resumed-${n++}`; })(), clock: { now: () => 1_700_000_000_000, sleep: async () => undefined } },
  });
  for (let next = await resumed.next(); !next.done; next = await resumed.next());
  return { path, cut, after: lines(readFileSync(path, 'utf8')) };
}

describe('version 1 logs', () => {
  it('still verify: the fixture recorded by the version-1 recorder replays with every hash checked', () => {
    const text = readFileSync(V1_FIXTURE, 'utf8');
    expect(JSON.parse(lines(text)[0]).version).toBe(1);
    const result = replay({ text, file: 'v1.jsonl' }, { allowVersionSkew: true });
    expect(result.terminal).toEqual({ reason: 'completed' });
    expect(result.steps).toBe(lines(text).length);
    expect(result.finalState.context.modelCalls).toBe(4);
    // The recording redacted the key and the header's extra pattern; replay folded the redacted events.
    expect(text).not.toContain('sk-ant-api03');
    expect(text).not.toContain('internal-id-42');
    expect(text).toContain('[REDACTED]');
  });

  it('are still checked: an edited event of the fixture is caught at its index', () => {
    const list = lines(readFileSync(V1_FIXTURE, 'utf8'));
    const target = list.findIndex((line) => line.includes('part 3'));
    list[target] = list[target].replace('part 3', 'part 4');
    const error = (() => {
      try {
        replay({ text: `${list.join('\n')}\n` }, { allowVersionSkew: true });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ReplayDivergenceError);
    expect((error as ReplayDivergenceError).index).toBe(JSON.parse(list[target]).index);
  });

  it('are continued in version 1 by resume, and the whole log still verifies', async () => {
    const { path, cut, after } = await resumeCutFixture(V1_FIXTURE, 'v1.jsonl');
    expect(after.length).toBeGreaterThan(cut + 1);
    for (const line of after.slice(cut + 1)) expect(Object.keys(JSON.parse(line))).toEqual(['kind', 'index', 'event', 'hash', 'at']);
    expect(replay(path, { allowVersionSkew: true }).terminal).toEqual({ reason: 'completed' });
  });
});

describe('version 2 logs', () => {
  it('still verify: the fixture recorded by the version-2 recorder (a hash on every line) replays with every hash checked', () => {
    const text = readFileSync(V2_FIXTURE, 'utf8');
    const list = lines(text);
    expect(JSON.parse(list[0]).version).toBe(2);
    for (const line of list.slice(1)) expect(Object.keys(JSON.parse(line)).at(-1)).toBe('hash');
    const result = replay({ text, file: 'v2.jsonl' }, { allowVersionSkew: true });
    expect(result.terminal).toEqual({ reason: 'completed' });
    expect(result.steps).toBe(list.length);
    expect(result.truncated).toBeNull();
    expect(text).not.toContain('sk-ant-api03');
    expect(text).not.toContain('internal-id-42');
  });

  it('are still checked line by line: an edited event of the fixture is caught at its own index', () => {
    const list = lines(readFileSync(V2_FIXTURE, 'utf8'));
    const target = list.findIndex((line) => line.includes('part 3'));
    list[target] = list[target].replace('part 3', 'part 4');
    expect(() => replay({ text: `${list.join('\n')}\n` }, { allowVersionSkew: true })).toThrowError(expect.objectContaining({
      code: 'REPLAY_DIVERGENCE',
      index: JSON.parse(list[target]).index,
      diff: expect.stringContaining("the line's bytes do not match its hash"),
    }));
  });

  it('refuse an event line without a hash (only version 3 groups lines)', () => {
    const list = lines(readFileSync(V2_FIXTURE, 'utf8'));
    const parsed = JSON.parse(list[3]);
    delete parsed.hash;
    list[3] = JSON.stringify(parsed);
    expect(() => parseSessionLogText(`${list.join('\n')}\n`)).toThrowError(/:4: expected an event line: hash: required in a version-2 log/);
  });

  it('are continued in version 2 by resume (a hash on every line), and the whole log still verifies', async () => {
    const { path, cut, after } = await resumeCutFixture(V2_FIXTURE, 'v2.jsonl');
    expect(after.length).toBeGreaterThan(cut + 2);
    for (const line of after.slice(cut + 1)) expect(Object.keys(JSON.parse(line))).toEqual(['kind', 'index', 'event', 'at', 'hash']);
    expect(replay(path, { allowVersionSkew: true }).terminal).toEqual({ reason: 'completed' });
  });
});

describe('version 3 logs', () => {
  it('replay the same from the text read and from lines rebuilt in memory (no raw bytes kept)', async () => {
    const run = await recordRun({ ...toolTurns(3), redact: { patterns: [/toolu_\d+/] } });
    const text = readFileSync(run.path, 'utf8');
    const fromText = replay({ text });
    const { raw: _raw, ...inMemory } = parseSessionLogText(text);
    const fromLines = replay(inMemory);
    expect(fromLines.finalState).toEqual(fromText.finalState);
    expect(fromLines.emitted).toEqual(fromText.emitted);
    expect(fromText.terminal).toEqual(run.terminal);
    // The extra pattern redacted the tool_use ids (values) in the events; the hashed control texts, rebuilt from
    // the replayed state, hold the redacted ids too, or the chain would not verify.
    expect(text).not.toMatch(/"(id|toolUseId|tool_use_id|sourceToolUseId)":"toolu_/);
  });

  it('refuse a line whose event was edited even when the digest still agrees', async () => {
    const run = await recordRun(toolTurns(2));
    const list = lines(readFileSync(run.path, 'utf8'));
    const target = list.findIndex((line) => line.includes('file contents 2'));
    list[target] = list[target].replace('file contents 2', 'file contents X');
    // Caught at the line that closes its commit group (the one hash covering it).
    const closing = list.slice(target).find((line) => line.includes('"hash":"'))!;
    expect(() => replay({ text: `${list.join('\n')}\n` })).toThrowError(expect.objectContaining({
      code: 'REPLAY_DIVERGENCE',
      index: JSON.parse(closing).index,
      diff: expect.stringContaining('it was edited'),
    }));
  });

  it('drop the lines after the last hash (a log cut inside a commit group) as a truncated end, which resume cuts off', async () => {
    const script = toolTurns(2);
    const run = await recordRun(script);
    const list = lines(readFileSync(run.path, 'utf8'));
    // Cut after the first tool result: its group (closed by the next model call's line) is incomplete.
    const cut = list.findIndex((line) => line.includes('"type":"tool_result"'));
    expect(list[cut]).not.toContain('"hash":"');
    const lastHashed = list.slice(0, cut + 1).findLastIndex((line) => line.includes('"hash":"'));
    writeFileSync(run.path, `${list.slice(0, cut + 1).join('\n')}\n`);
    const parsed = parseSessionLogText(readFileSync(run.path, 'utf8'));
    expect(parsed.events).toHaveLength(lastHashed);
    expect(parsed.truncated?.line).toBe(lastHashed + 2);
    expect(parsed.validBytes).toBe(Buffer.byteLength(`${list.slice(0, lastHashed + 1).join('\n')}\n`));
    expect(replay(run.path).truncated).not.toBeNull();

    const resumed = resumeFromLog(run.path, {
      tools: scriptedToolRuntime([{ name: 'Read', results: script.tools[0].results }]),
      deps: { callModel: scriptedModelCaller(script.model.slice(1)) },
    });
    for (let next = await resumed.next(); !next.done; next = await resumed.next());
    const after = replay(run.path);
    expect(after.truncated).toBeNull();
    expect(after.terminal).toEqual({ reason: 'completed' });
  });

  describe('catch an edit of any single byte', async () => {
    const run = await recordRun({ ...toolTurns(2), redact: { patterns: [/internal-\d+/] } });
    const text = readFileSync(run.path, 'utf8');
    test.prop([fc.nat({ max: text.length - 1 }), fc.integer({ min: 32, max: 126 })], { numRuns: 400 })('byte %d', (position, code) => {
      const replacement = String.fromCharCode(code);
      fc.pre(text[position] !== replacement);
      const edited = text.slice(0, position) + replacement + text.slice(position + 1);
      let outcome: string;
      try {
        // An edit that leaves the LAST line unreadable is what a crash mid-write looks like: reported as truncated.
        outcome = replay({ text: edited }).truncated ? 'truncated' : 'accepted';
      } catch (error) {
        outcome = (error as { code?: string }).code ?? 'error';
      }
      expect(outcome).not.toBe('accepted');
    });
  });
});
