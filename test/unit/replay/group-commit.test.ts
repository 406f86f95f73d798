/**
 * Group commit of a recording to a file: lines are held only while nothing outside the reducer has been started
 * on their account, and never while the process waits.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import type { ToolRuntime } from '../../../src/data/tool-runtime.ts';
import { scriptedModelCaller, scriptedToolRuntime } from '../../../src/replay/scripted-deps.ts';
import { foldSessionLog, replay } from '../../../src/replay/replay.ts';
import { parseSessionLogText } from '../../../src/replay/parse-session-log.ts';
import { createSessionRecorder } from '../../../src/replay/session-recorder.ts';
import { recordRun, tempLogPath, toolTurns } from './fixtures.ts';

const config = resolveConfig({ sessionId: 'group-commit' });
const lineCount = (path: string) => readFileSync(path, 'utf8').split('\n').filter((line) => line !== '').length;

/**
 * Runs `lines` in a child process after the set-up they share: a recorder of `path` (named `recorder`) and the
 * initial step of a one-message run (`started`).
 */
function recordInChild(path: string, lines: string[]) {
  const source = (file: string) => JSON.stringify(new URL(`../../../src/${file}`, import.meta.url).pathname);
  const script = [
    `import { createSessionRecorder } from ${source('replay/session-recorder.ts')};`,
    `import { initialState } from ${source('reducer/step.ts')};`,
    `import { resolveConfig } from ${source('config/config.ts')};`,
    `const config = resolveConfig({ sessionId: 'exit' });`,
    `const started = initialState({ messages: [{ type: 'user', uuid: 'u1', message: { role: 'user', content: 'hi' } }] }, config);`,
    `const recorder = createSessionRecorder(${JSON.stringify(path)}, { config });`,
    ...lines,
  ].join('\n');
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
}

/** The folded steps of a recorded run, to feed a recorder by hand. */
async function recordedSteps() {
  const run = await recordRun(toolTurns(1));
  return [...foldSessionLog(parseSessionLogText(readFileSync(run.path, 'utf8')))];
}

describe('group commit', () => {
  it('has every line on disk before a tool starts: the tool reads the log and finds the line that asked for it', async () => {
    const path = tempLogPath();
    const script = toolTurns(2);
    const inner = scriptedToolRuntime(script.tools);
    const seenByTool: string[][] = [];
    const spying: ToolRuntime = {
      ...inner,
      startStreaming(signal) {
        const session = inner.startStreaming(signal);
        return { ...session, enqueue: (toolUse, safe) => {
          seenByTool.push(readFileSync(path, 'utf8').trimEnd().split('\n'));
          session.enqueue(toolUse, safe);
        } };
      },
    };
    const recorder = createSessionRecorder(path, { config });
    await runLoopToEnd({ prompt: 'Read.', config, tools: spying, deps: { callModel: scriptedModelCaller(script.model) }, onStep: recorder });
    recorder.close();
    expect(seenByTool).toHaveLength(2);
    for (const [i, lines] of seenByTool.entries()) {
      const last = JSON.parse(lines[lines.length - 1]);
      expect(last.event.type).toBe('model_message');
      expect(last.event.message.message.content[0]).toMatchObject({ type: 'tool_use', id: `toolu_${i + 1}` });
    }
  });

  it('holds the line of a step that started nothing outside until the next turn of the event loop', async () => {
    const steps = await recordedSteps();
    const path = tempLogPath();
    const recorder = createSessionRecorder(path, { config });
    recorder(steps[0]);
    expect(lineCount(path)).toBe(1);
    const quiet = steps.findIndex((s, i) => i > 0 && s.effects.every((e) => e.type === 'context_layer'));
    for (let i = 1; i <= quiet; i++) recorder(steps[i]);
    const beforeTurn = lineCount(path);
    expect(beforeTurn).toBeLessThan(quiet + 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lineCount(path)).toBe(quiet + 1);
    recorder.close();
  });

  it('holds a line made after a commit no longer than the next turn of the event loop, whatever was scheduled before', async () => {
    const steps = await recordedSteps();
    const path = tempLogPath();
    const recorder = createSessionRecorder(path, { config });
    recorder(steps[0]);
    // A quiet step schedules the writer's turn-end commit; the model call's step commits before that turn comes.
    const call = steps.findIndex((s, i) => i > 1 && s.effects.some((e) => e.type === 'call_model') && steps[i - 1].effects.every((e) => e.type !== 'call_model'));
    for (let i = 1; i <= call; i++) recorder(steps[i]);
    expect(lineCount(path)).toBe(call + 1);
    // A line after that commit is held, and goes out by the next turn of the event loop.
    recorder(steps[call + 1]);
    expect(steps[call + 1].effects.some((e) => e.type === 'call_model' || e.type === 'terminated')).toBe(false);
    expect(lineCount(path)).toBe(call + 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lineCount(path)).toBe(call + 2);
    recorder.close();
  });

  it('a step that cannot be serialised stops recording there; the lines queued before it still go out, once', async () => {
    const steps = await recordedSteps();
    const path = tempLogPath();
    const errors: Error[] = [];
    const recorder = createSessionRecorder(path, { config, onError: (error) => errors.push(error) });
    // A step that starts nothing outside is queued, not written: the bad step comes right after it, same group.
    const quiet = steps.findIndex((s, i) => i > 0 && s.effects.every((e) => e.type === 'context_layer'));
    for (const folded of steps.slice(0, quiet + 1)) recorder(folded);
    const bad = steps[quiet + 1];
    recorder({ ...bad, event: { ...bad.event, bad: 1n } as unknown as typeof bad.event }); // JSON cannot write a BigInt
    for (const folded of steps.slice(quiet + 2)) recorder(folded);
    recorder.close();
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toMatch(/BigInt/);
    expect(recorder.error).toBe(errors[0]);
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as { index?: number });
    expect(lines.map((line) => line.index ?? 0)).toEqual(steps.slice(0, quiet + 1).map((folded) => folded.index));
    // The group cut short by the failure is still sealed: its last line carries the hash, and the log verifies.
    expect(Object.keys(lines.at(-1)!)).toContain('hash');
    const replayed = replay(path);
    expect(replayed.truncated).toBeNull();
    expect(replayed.steps).toBe(quiet + 1);
  });

  it('writes each line at once with fsync', async () => {
    const steps = await recordedSteps();
    const path = tempLogPath();
    const recorder = createSessionRecorder(path, { config, fsync: true });
    for (const [i, folded] of steps.slice(0, 4).entries()) {
      recorder(folded);
      expect(lineCount(path)).toBe(i + 1);
    }
    recorder.close();
  });

  it('keeps its exit flush registered through a synchronous stretch of commits, not re-registered per commit', async () => {
    const steps = [...foldSessionLog(parseSessionLogText(readFileSync((await recordRun(toolTurns(4))).path, 'utf8')))];
    const path = tempLogPath();
    const recorder = createSessionRecorder(path, { config });
    recorder(steps[0]);
    recorder(steps[1]);
    // Every later turn commits before its model call and queues quiet steps after it: no set is touched for that.
    const add = vi.spyOn(Set.prototype, 'add');
    const remove = vi.spyOn(Set.prototype, 'delete');
    try {
      for (const step of steps.slice(2)) recorder(step);
      // The writer's exit flush is its `commit` (the spies themselves use sets too).
      const ofWriter = (calls: unknown[][]) => calls.filter(([value]) => typeof value === 'function' && value.name === 'commit');
      expect(ofWriter(add.mock.calls)).toHaveLength(0);
      expect(ofWriter(remove.mock.calls)).toHaveLength(0);
    } finally {
      add.mockRestore();
      remove.mockRestore();
    }
    expect(lineCount(path)).toBe(steps.length);
    recorder.close();
  });

  it('writes at exit the lines held after a commit in the same synchronous stretch', () => {
    const path = tempLogPath();
    const child = recordInChild(path, [
      `const layer = { type: 'context_layer_result', layer: 'tool_result_budget', edits: [], tokensFreed: 0 };`,
      `recorder({ index: 0, event: null, state: started.state, effects: started.effects });`,
      `recorder({ index: 1, event: layer, state: started.state, effects: [] });`,
      `recorder({ index: 2, event: layer, state: started.state, effects: [{ type: 'call_model', id: 1 }] });`,
      `recorder({ index: 3, event: layer, state: started.state, effects: [] });`,
      `recorder({ index: 4, event: layer, state: started.state, effects: [] });`,
      `process.exit(0);`,
    ]);
    expect(child.stderr).toBe('');
    expect(lineCount(path)).toBe(5);
  });

  it('writes held lines when the process exits', () => {
    const path = tempLogPath();
    const child = recordInChild(path, [
      `recorder({ index: 0, event: null, state: started.state, effects: started.effects });`,
      `recorder({ index: 1, event: { type: 'context_layer_result', layer: 'tool_result_budget', edits: [], tokensFreed: 0 }, state: started.state, effects: [] });`,
      `process.exit(0);`,
    ]);
    expect(child.stderr).toBe('');
    expect(lineCount(path)).toBe(2);
  });

  it('writes nothing through its closed file after close(): a later step is reported, not written to a file that took the descriptor', async () => {
    const steps = [...foldSessionLog(parseSessionLogText(readFileSync((await recordRun(toolTurns(2))).path, 'utf8')))];
    const path = tempLogPath();
    const errors: Error[] = [];
    const recorder = createSessionRecorder(path, { config, onError: (error) => errors.push(error) });
    const cut = steps.findIndex((step, i) => i > 1 && step.effects.some((effect) => effect.type === 'call_model'));
    for (const step of steps.slice(0, cut)) recorder(step);
    recorder.close();
    const before = readFileSync(path, 'utf8');
    // The process opens another file: it may get the closed log's descriptor number.
    const otherPath = tempLogPath('other.jsonl');
    const other = openSync(otherPath, 'w');
    try {
      // A quiet step, then one that commits before its model call; and close() again.
      for (const step of steps.slice(cut, cut + 3)) recorder(step);
      recorder.close();
    } finally {
      closeSync(other);
    }
    expect(readFileSync(otherPath, 'utf8')).toBe('');
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(errors.map((error) => (error as { code?: string }).code)).toEqual(['RECORDER_STEP_ORDER']);
    expect(recorder.error).toBe(errors[0]);
  });
});
