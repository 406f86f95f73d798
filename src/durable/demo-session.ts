/**
 * The scripted session of `turnloop durable-demo` and the durable tests: an offline model that asks for one
 * `AppendLine` call per turn for `turns` turns and then answers, and the `AppendLine` tool, which appends one line
 * per execution to a file.
 *
 * Both are stateless across processes, as a real model API and a real file are: the model's answer depends only
 * on the request (how many turns the history already holds), and the tool deduplicates by its idempotency key
 * (the tool_use id) by looking at the file, so it is marked idempotent. `onPhase` comes after the tool's line is
 * written and after the model call is counted as paid for, so a kill held there falls inside each window. Every model call that is executed appends a
 * line to `modelLog` (if given), so the number of calls paid for can be counted across worker processes.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ModelCaller, ModelStreamItem } from '../data/deps.ts';
import { defineTool, type Tool } from '../tools/define-tool.ts';
import type { AssistantMessage } from '../messages/types.ts';
import type { DurableQueryOptions } from './durable-query.ts';

export interface DemoSessionOptions {
  sessionId: string;
  turns: number;
  /** The file `AppendLine` appends to. */
  toolLog: string;
  /** One line per executed model call. */
  modelLog?: string;
  /** One line per execution of the tool (`<idempotency key>`), written before it dedupes: re-runs show here. */
  executionLog?: string;
  /** Time each model call and each tool call takes (a window to be killed in). */
  modelDelayMs?: number;
  toolDelayMs?: number;
  /** Told when a model call starts, and when a tool call did its work (turn numbers from 1); awaited. */
  onPhase?: (phase: 'model' | 'tool', turn: number) => void | Promise<void>;
  codeVersion?: string;
}

/** The virtual time every demo run starts at, so that two runs give the same transcript. */
export const DEMO_EPOCH = Date.UTC(2025, 0, 1);

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/** The lines of a tool log: `turn <n> <idempotency key>`. */
export function readToolLog(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter((line) => line !== '') : [];
}

function appendLineTool(options: DemoSessionOptions): Tool {
  return defineTool({
    name: 'AppendLine',
    description: 'Appends one line to the session log file.',
    inputSchema: z.object({ turn: z.number().int().positive() }),
    idempotent: true,
    call: async ({ turn }, ctx) => {
      const key = ctx.idempotencyKey;
      if (options.executionLog) appendFileSync(options.executionLog, `${key}\n`);
      const done = readToolLog(options.toolLog).some((line) => line.endsWith(` ${key}`));
      if (!done) appendFileSync(options.toolLog, `turn ${turn} ${key}\n`);
      await options.onPhase?.('tool', turn);
      await sleep(options.toolDelayMs ?? 0);
      // The same answer whether this execution appended the line or an interrupted earlier one did.
      return { content: `appended line ${turn}` };
    },
  });
}

function demoModel(options: DemoSessionOptions): ModelCaller {
  return async function* (request): AsyncGenerator<ModelStreamItem> {
    const turn = request.messages.filter((message) => message.type === 'assistant').length + 1;
    if (options.modelLog) appendFileSync(options.modelLog, `call ${turn}\n`);
    await options.onPhase?.('model', turn);
    await sleep(options.modelDelayMs ?? 0);
    const last = turn > options.turns;
    const usage = { input_tokens: 100 + 40 * turn, output_tokens: 20 };
    const message: AssistantMessage = {
      type: 'assistant',
      uuid: `msg_demo_${turn}`,
      message: {
        id: `msg_demo_${turn}`,
        role: 'assistant',
        model: request.model,
        content: last
          ? [{ type: 'text', text: `Done: ${options.turns} lines appended.` }]
          : [{ type: 'tool_use', id: `toolu_demo_${turn}`, name: 'AppendLine', input: { turn } }],
        stop_reason: last ? 'end_turn' : 'tool_use',
        usage,
      },
    };
    yield { kind: 'event', event: { type: 'model_message', message } };
    yield { kind: 'event', event: { type: 'model_done', usage, stopReason: message.message.stop_reason } };
  } as ModelCaller;
}

/** The query options of the demo session (everything but the journal). */
export function demoSessionOptions(options: DemoSessionOptions): Omit<DurableQueryOptions, 'journal'> {
  return {
    prompt: `Append ${options.turns} lines to the log, one per turn.`,
    tools: [appendLineTool(options)],
    config: { sessionId: options.sessionId },
    maxTurns: options.turns + 5,
    idSeed: options.sessionId,
    ...(options.codeVersion !== undefined ? { codeVersion: options.codeVersion } : {}),
    deps: {
      callModel: demoModel(options),
      clock: { now: () => DEMO_EPOCH, sleep },
    },
  };
}
