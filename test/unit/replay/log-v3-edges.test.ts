/**
 * Version 3's commit groups at the edges: a log cut inside a group (with or without the last newline, with blank
 * lines), time travel into a group that was edited, logs handed over already parsed, an overlong group, and
 * resume appending to a log whose last line lacks its newline or named by another spelling of its path.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSessionLogText, type ParsedSessionLog } from '../../../src/replay/parse-session-log.ts';
import { replay } from '../../../src/replay/replay.ts';
import { resumeFromLog } from '../../../src/replay/resume.ts';
import { scriptedModelCaller, scriptedToolRuntime } from '../../../src/replay/scripted-deps.ts';
import { MAX_GROUP_LINES } from '../../../src/replay/session-log-schema.ts';
import { stateAt } from '../../../src/replay/time-travel.ts';
import { recordRun, toolTurns } from './fixtures.ts';

const lines = (text: string) => text.trimEnd().split('\n');

async function recorded() {
  const script = toolTurns(2);
  const run = await recordRun(script);
  return { script, run, list: lines(readFileSync(run.path, 'utf8')) };
}

async function resume(path: string, script: ReturnType<typeof toolTurns>, recordTo?: string) {
  const resumed = resumeFromLog(path, {
    tools: scriptedToolRuntime([{ name: 'Read', results: script.tools[0].results }]),
    deps: { callModel: scriptedModelCaller(script.model.slice(1)) },
    ...(recordTo ? { record: recordTo } : {}),
  });
  for (let next = await resumed.next(); !next.done; next = await resumed.next());
}

/** The index in `list` of the first line without a hash after a hashed event line (a group's inside). */
function insideGroup(list: string[]): number {
  const at = list.findIndex((line, i) => i > 1 && !line.includes('"hash":"') && list[i - 1].includes('"hash":"'));
  expect(at).toBeGreaterThan(1);
  return at;
}

describe('version 3: a log cut inside a commit group', () => {
  it('resumes to a readable log when the cut leaves a line without its newline', async () => {
    const { script, run, list } = await recorded();
    const cut = insideGroup(list);
    // The file ends right after the `}` of a line no hash covers (a write torn just before its newline).
    writeFileSync(run.path, list.slice(0, cut + 1).join('\n'));
    const parsed = parseSessionLogText(readFileSync(run.path, 'utf8'));
    expect(parsed.validBytes).toBe(Buffer.byteLength(`${list.slice(0, cut).join('\n')}\n`));
    await resume(run.path, script);
    const after = replay(run.path);
    expect(after.truncated).toBeNull();
    expect(after.terminal).toEqual({ reason: 'completed' });
  });

  it('drops blank lines among the uncovered ones too', async () => {
    const { script, run, list } = await recorded();
    // Two lines of one group, neither carrying the hash.
    const cut = list.findIndex((line, i) => i > 0 && !line.includes('"hash":"') && !(list[i + 1] ?? '"hash":"').includes('"hash":"'));
    expect(cut).toBeGreaterThan(0);
    writeFileSync(run.path, `${list.slice(0, cut).join('\n')}\n${list[cut]}\n\n${list[cut + 1]}\n\n`);
    const parsed = parseSessionLogText(readFileSync(run.path, 'utf8'));
    expect(parsed.validBytes).toBe(Buffer.byteLength(`${list.slice(0, cut).join('\n')}\n`));
    await resume(run.path, script);
    expect(replay(run.path).terminal).toEqual({ reason: 'completed' });
  });
});

describe('version 3: steps are handed out only once their group is verified', () => {
  it('time travel to an edited line inside a group throws instead of returning its state', async () => {
    const { run, list } = await recorded();
    const target = list.findIndex((line, i) => i > 0 && !line.includes('"hash":"') && line.includes('Reading part 1.'));
    expect(target).toBeGreaterThan(0);
    list[target] = list[target].replace('Reading part 1.', 'EDITED part 1.');
    writeFileSync(run.path, `${list.join('\n')}\n`);
    const index = (JSON.parse(list[target]) as { index: number }).index;
    expect(() => stateAt(run.path, index)).toThrowError(expect.objectContaining({ code: 'REPLAY_DIVERGENCE', diff: expect.stringContaining('it was edited') }));
  });

  it('refuses a log handed over already parsed whose last lines no hash covers', async () => {
    const { run } = await recorded();
    const log = parseSessionLogText(readFileSync(run.path, 'utf8'));
    const { raw: _raw, ...inMemory } = log;
    const last = inMemory.events.at(-1)!;
    const unsealed: ParsedSessionLog = { ...inMemory, events: [...inMemory.events.slice(0, -1), { ...last, hash: undefined }] };
    expect(() => replay(unsealed)).toThrowError(/not covered by any hash/);
  });

  it('refuses a version-2 log handed over already parsed with a line that has no hash', () => {
    const log = parseSessionLogText(readFileSync(new URL('./fixtures/session-log-v2.jsonl', import.meta.url), 'utf8'));
    const { raw: _raw, ...inMemory } = log;
    const events = inMemory.events.map((line, i) => (i === 2 ? { ...line, hash: undefined } : line));
    expect(() => replay({ ...inMemory, events }, { allowVersionSkew: true })).toThrowError(/no hash, which every line of a version-2 log carries/);
  });

  it(`refuses a run of ${MAX_GROUP_LINES} lines without a hash (longer than any commit group)`, async () => {
    const { list } = await recorded();
    const [header, ...events] = list;
    const template = JSON.parse(events.find((line) => line.includes('"type":"tools_finished"'))!) as Record<string, unknown>;
    delete template.hash;
    const filler = Array.from({ length: MAX_GROUP_LINES }, (_, i) => JSON.stringify({ ...template, index: i + 1 }));
    expect(() => parseSessionLogText(`${[header, ...filler].join('\n')}\n`)).toThrowError(new RegExp(`expected a hash at least every ${MAX_GROUP_LINES} event lines`));
  });
});

describe('resume appends on a line of its own', () => {
  it('when the last line was written without its newline', async () => {
    const { script, run, list } = await recorded();
    const lastHashed = list.findIndex((line, i) => i > 0 && line.includes('"hash":"') && line.includes('"type":"model_done"'));
    writeFileSync(run.path, list.slice(0, lastHashed + 1).join('\n'));
    await resume(run.path, script);
    expect(replay(run.path).terminal).toEqual({ reason: 'completed' });
  });

  it('when the log to continue is named by another spelling of its path', async () => {
    const { script, run, list } = await recorded();
    const cut = insideGroup(list);
    writeFileSync(run.path, `${list.slice(0, cut + 1).join('\n')}\n`);
    const spelled = `${dirname(run.path)}/./${basename(run.path)}`;
    await resume(run.path, script, relative(process.cwd(), spelled) === '' ? spelled : `${relative(process.cwd(), dirname(run.path))}/./${basename(run.path)}`);
    expect(replay(run.path).terminal).toEqual({ reason: 'completed' });
  });
});
