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
  /** A log of `toolTurns(2)` cut after its first reply, the whole script, and the CLI's output. */
  async function crashedRun() {
    const script = toolTurns(2);
    const run = await recordRun(script);
    let seen = 0;
    crashAfter(run.path, (line) => line.includes('"type":"model_done"') && ++seen === 1);
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-resume-'));
    const write = (name: string, model: typeof script.model) => {
      writeFileSync(join(dir, name), JSON.stringify({ model: model.map(({ content, stop_reason }) => ({ content, stop_reason })), tools: script.tools }));
      return join(dir, name);
    };
    return { script, run, write };
  }
  async function resume(...argv: string[]) {
    let out = '';
    const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (out += t) }, env: {}, cwd: process.cwd() };
    const code = await main(['resume', ...argv], io);
    return { code, out };
  }
  const modelDone = (path: string) => readFileSync(path, 'utf8').split('\n').filter((line) => line.includes('"type":"model_done"')).length;

  it('continues the script the log was recorded from where the log ended (not from its first reply)', async () => {
    const { script, run, write } = await crashedRun();
    const { code, out } = await resume(run.path, '--fake-api', write('scenario.json', script.model));
    expect(code, out).toBe(0);
    expect(out).toContain('terminal: completed');
    // Replies 2 and 3 were served (one call each), never reply 1 again: three replies in all, as the script has.
    expect(out).not.toContain('Reading part 1.');
    expect(out).toContain('Reading part 2.');
    expect(modelDone(run.path)).toBe(script.model.length);
    expect(replay(run.path).terminal).toEqual({ reason: 'completed' });
  });

  it('--script-from-start serves a script of only the replies after the log from its first', async () => {
    const { script, run, write } = await crashedRun();
    const { code, out } = await resume(run.path, '--fake-api', write('rest.json', script.model.slice(1)), '--script-from-start');
    expect(code, out).toBe(0);
    expect(modelDone(run.path)).toBe(script.model.length);
    expect(replay(run.path).terminal).toEqual({ reason: 'completed' });
  });

  it('a script that does not begin with the log\'s replies is refused with one line, the log untouched', async () => {
    const { script, run, write } = await crashedRun();
    const before = readFileSync(run.path);
    const { code, out } = await resume(run.path, '--fake-api', write('rest.json', script.model.slice(1)));
    expect(code).toBe(2);
    expect(out).toMatch(/--fake-api: .*rest\.json: its model reply 1 \("Reading part 2\.", tool_use Read\) is not the log's reply 1 \("Reading part 1\.", tool_use Read\); .*--script-from-start/);
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(run.path)).toEqual(before);
  });
});

describe('turnloop resume --fake-api after results the runtime wrote itself', () => {
  /**
   * A scenario whose first reply calls Bash (which fails) and Lookup: the failed Bash cancels its sibling before it
   * starts, so that Lookup call gets the runtime's own error result and takes none of Lookup's scripted results.
   * The next two Lookup calls get "first" and "second".
   */
  const scenario = {
    name: 'a sibling cancelled, then two more calls',
    params: { prompt: 'go' },
    tools: [
      { name: 'Bash', results: [{ content: 'exit 1: boom', isError: true }] },
      { name: 'Lookup', results: [{ content: 'first' }, { content: 'second' }] },
    ],
    model: [
      { content: [{ type: 'tool_use', id: 'toolu_b1', name: 'Bash', input: { command: 'false' } }, { type: 'tool_use', id: 'toolu_l1', name: 'Lookup', input: { q: 'a' } }], stop_reason: 'tool_use' },
      { content: [{ type: 'tool_use', id: 'toolu_l2', name: 'Lookup', input: { q: 'b' } }], stop_reason: 'tool_use' },
      { content: [{ type: 'tool_use', id: 'toolu_l3', name: 'Lookup', input: { q: 'c' } }], stop_reason: 'tool_use' },
      { content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' },
    ],
  };
  const resultOf = (path: string, id: string) =>
    readFileSync(path, 'utf8').split('\n').filter((line) => line.includes(`"type":"tool_result","toolUseId":"${id}"`)).map((line) => {
      const event = JSON.parse(line).event;
      return event.message.message.content[0].content as string;
    });

  it('serves the next call the scripted result the cancelled call never took', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-resume-synthetic-'));
    const scenarioPath = join(dir, 'scenario.json');
    const log = join(dir, 'run.jsonl');
    writeFileSync(scenarioPath, JSON.stringify(scenario));
    const io = () => {
      let out = '';
      return { io: { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (out += t) }, env: {}, cwd: dir }, out: () => out };
    };
    const simulated = io();
    expect(await main(['simulate', scenarioPath, '--record', log], simulated.io), simulated.out()).toBe(0);
    // What the recorded run gave each call: the cancelled one took nothing.
    expect(resultOf(log, 'toolu_l1')[0]).toMatch(/^Cancelled: a sibling tool call \(Bash, toolu_b1\) failed/);
    expect(resultOf(log, 'toolu_l2')).toEqual(['first']);
    expect(resultOf(log, 'toolu_l3')).toEqual(['second']);
    // Crash just before the third Lookup's result was written; resume serves the script from where the log ended.
    const lines = readFileSync(log, 'utf8').split('\n');
    const thirdResult = lines.findIndex((line) => line.includes('"type":"tool_result","toolUseId":"toolu_l3"'));
    crashAfter(log, (_line, i) => i === thirdResult - 1);
    expect(resultOf(log, 'toolu_l3')).toEqual([]);
    const resumed = io();
    expect(await main(['resume', log, '--fake-api', scenarioPath], resumed.io), resumed.out()).toBe(0);
    expect(resultOf(log, 'toolu_l3')).toEqual(['second']);
    expect(replay(log).terminal).toEqual({ reason: 'completed' });
  });
});
