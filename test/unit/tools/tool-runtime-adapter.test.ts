import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelCaller } from '../../../src/data/deps.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import type { ToolRuntime } from '../../../src/data/tool-runtime.ts';
import { createToolRuntime } from '../../../src/tools/create-tool-runtime.ts';
import type { AssistantMessage, AssistantContentBlock, UserMessage } from '../../../src/messages/types.ts';
import { createFileTools } from '../../../src/tools/builtin/index.ts';
import { collect, controlledTools, Gates, idGenerator, RunLog, toolUse } from './fixtures.ts';

function assistant(id: string, block: AssistantContentBlock): AssistantMessage {
  return { type: 'assistant', uuid: `a-${id}`, message: { id, role: 'assistant', model: 'm', content: [block], stop_reason: null } };
}

/** First call: the model reads two files; second call: it answers in text. */
const readTwiceThenAnswer: ModelCaller = async function* (request) {
  const answered = request.messages.some((m) => m.type === 'user' && m.sourceToolUseId !== undefined);
  if (!answered) {
    for (const [id, file] of [['r1', 'a.txt'], ['r2', 'b.txt']]) {
      yield { kind: 'event', event: { type: 'model_message', message: assistant('m1', { type: 'tool_use', id, name: 'Read', input: { file_path: file } }) } };
    }
  } else {
    yield { kind: 'event', event: { type: 'model_message', message: assistant('m2', { type: 'text', text: 'done' }) } };
  }
  yield { kind: 'event', event: { type: 'model_done', usage: { input_tokens: 10, output_tokens: 5 }, stopReason: 'end_turn' } };
};

describe('createToolRuntime: the interpreter port', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'turnloop-adapter-'));
    await writeFile(path.join(root, 'a.txt'), 'alpha\n');
    await writeFile(path.join(root, 'b.txt'), 'beta\n');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('offers definitions and concurrency answers from its registry', () => {
    const runtime: ToolRuntime = createToolRuntime({ tools: createFileTools({ root }) });
    expect(runtime.definitions().map((d) => d.name)).toEqual(['Read', 'Edit', 'Glob', 'Grep']);
    expect(runtime.concurrencySafe([toolUse('x', 'Read', { file_path: 'a' }), toolUse('y', 'Edit', {})])).toEqual({ x: true, y: false });
  });

  it('streaming sessions notify listeners and report in order', async () => {
    const gates = new Gates();
    const runtime = createToolRuntime({ tools: controlledTools({ log: new RunLog(), gate: gates.wait }), newId: idGenerator() });
    const session = runtime.startStreaming(new AbortController().signal);
    let ready = 0;
    session.onReady(() => ready++);
    session.enqueue(toolUse('a', 'Safe'), true);
    session.enqueue(toolUse('b', 'Unsafe'), false);
    gates.open('a', 'b');
    expect((await collect(session.finish())).map((e) => e.toolUseId)).toEqual(['a', 'b']);
    expect(ready).toBe(2);
  });

  for (const streamingToolExecution of [true, false]) {
    it(`answers every tool_use inside query() (streaming execution ${streamingToolExecution ? 'on' : 'off'})`, async () => {
      const tools = createToolRuntime({ tools: createFileTools({ root }), newId: idGenerator('t') });
      const { items, terminal } = await runLoopToEnd({
        prompt: 'read both',
        tools,
        config: { features: { streamingToolExecution } },
        deps: { callModel: readTwiceThenAnswer, newId: idGenerator('q') },
      });
      expect(terminal.reason).toBe('completed');
      const results = items.filter((i): i is UserMessage => i.type === 'user' && i.sourceToolUseId !== undefined);
      expect(results.map((r) => r.sourceToolUseId).sort()).toEqual(['r1', 'r2']);
      expect(JSON.stringify(results)).toContain('alpha');
      expect(JSON.stringify(results)).toContain('beta');
    });
  }
});
