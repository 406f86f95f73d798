import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import type { QueryItem } from '../../../src/messages/types.ts';
import { replay } from '../../../src/replay/replay.ts';
import { resumeFromLog } from '../../../src/replay/resume.ts';
import { scriptedModelCaller, scriptedToolRuntime } from '../../../src/replay/scripted-deps.ts';
import { recordRun, reseal, toolTurns } from './fixtures.ts';

/**
 * The log a crash right after the line `predicate` picks leaves: the lines up to it, as a recorder writing each
 * line as its own commit (a file written while the process waits for I/O, `fsync: true`, or a stream) would have
 * sealed them, then the torn start of the next line.
 */
function crashAfter(path: string, predicate: (line: string, i: number) => boolean): number {
  const list = readFileSync(path, 'utf8').trimEnd().split('\n');
  const cut = list.findIndex(predicate);
  writeFileSync(path, `${reseal(list.slice(0, cut + 1)).join('\n')}\n${list[cut + 1].slice(0, 25)}`);
  return cut;
}

async function drain(generator: AsyncGenerator<QueryItem, unknown>) {
  const items: QueryItem[] = [];
  while (true) {
    const next = await generator.next();
    if (next.done) return { items, terminal: next.value };
    items.push(next.value);
  }
}

describe('resume', () => {
  it('continues a run that crashed while the model was streaming, and the whole log replays', async () => {
    const script = toolTurns(2);
    const run = await recordRun(script);
    let seen = 0;
    // Crash right after the first block of the second reply arrived.
    crashAfter(run.path, (line) => line.includes('"type":"model_message"') && ++seen === 3);
    const before = replay(run.path);
    expect(before.terminal).toBeNull();
    expect(before.truncated).not.toBeNull();

    const { terminal } = await drain(
      resumeFromLog(run.path, {
        tools: scriptedToolRuntime([{ name: 'Read', results: script.tools[0].results.slice(1) }]),
        deps: { callModel: scriptedModelCaller(script.model.slice(1)), newId: (() => { let n = 0; return () => `resumed-${++n}`; })() },
      }),
    );
    expect(terminal).toEqual({ reason: 'completed' });
    const after = replay(run.path);
    expect(after.truncated).toBeNull();
    expect(after.terminal).toEqual({ reason: 'completed' });
    // The half-received reply was forgotten through the reducer's own stream-fallback (tombstones), then re-asked.
    expect(after.emitted.some((m) => m.type === 'tombstone')).toBe(true);
    expect(after.finalState.context.modelCalls).toBe(3);
  });

  it('re-runs only the tools that had not answered', async () => {
    const script = toolTurns(2);
    const run = await recordRun(script);
    let seen = 0;
    crashAfter(run.path, (line) => line.includes('"type":"model_done"') && ++seen === 2);
    const { terminal } = await drain(
      resumeFromLog(run.path, {
        tools: scriptedToolRuntime([{ name: 'Read', results: [{ content: 'part 2, read again' }] }]),
        deps: { callModel: scriptedModelCaller(script.model.slice(2)) },
      }),
    );
    expect(terminal).toEqual({ reason: 'completed' });
    const after = replay(run.path);
    expect(after.terminal).toEqual({ reason: 'completed' });
    const results = after.emitted.filter((m) => m.type === 'user' && Array.isArray(m.message.content) && m.message.content[0]?.type === 'tool_result');
    expect(results).toHaveLength(2);
  });

  it('does nothing for a finished run', async () => {
    const run = await recordRun(toolTurns(1));
    const size = readFileSync(run.path).length;
    const { items, terminal } = await drain(resumeFromLog(run.path, { deps: { callModel: scriptedModelCaller([]) } }));
    expect(terminal).toEqual(run.terminal);
    expect(items).toEqual([]);
    expect(readFileSync(run.path).length).toBe(size);
  });
});

describe('turnloop resume --fake-api', () => {
  it('continues a crashed log against the loopback fake API and appends to the log', async () => {
    const script = toolTurns(2);
    const run = await recordRun(script);
    let seen = 0;
    crashAfter(run.path, (line) => line.includes('"type":"model_done"') && ++seen === 1);
    const scenario = join(mkdtempSync(join(tmpdir(), 'turnloop-resume-')), 'scenario.json');
    writeFileSync(scenario, JSON.stringify({ model: script.model.slice(1).map(({ content, stop_reason }) => ({ content, stop_reason })), tools: script.tools }));
    let out = '';
    const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (out += t) }, env: {}, cwd: process.cwd() };
    expect(await main(['resume', run.path, '--fake-api', scenario], io)).toBe(0);
    expect(out).toContain('terminal: completed');
    expect(replay(run.path).terminal).toEqual({ reason: 'completed' });
  });
});
