/**
 * Test fixtures for the tool runtime: controllable tools that record when they run, deterministic ids, gates.
 */
import { z } from 'zod';
import type { ToolUseBlock, UserMessage } from '../../../src/messages/types.ts';
import type { ToolResultEvent } from '../../../src/data/deps.ts';
import { defineTool, type InterruptBehavior, type Tool } from '../../../src/tools/define-tool.ts';
import { createToolRegistry } from '../../../src/tools/registry.ts';
import type { ToolCallDeps } from '../../../src/tools/call-deps.ts';

export function idGenerator(prefix = 'u'): () => string {
  let n = 0;
  return () => `${prefix}${++n}`;
}

export function toolUse(id: string, name: string, input: unknown = {}): ToolUseBlock {
  return { type: 'tool_use', id, name, input };
}

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Lets pending promise callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}

/** The text of the single tool_result block of an event. */
export function resultText(event: ToolResultEvent): string {
  const block = (event.message as UserMessage).message.content[0];
  if (typeof block === 'string' || block.type !== 'tool_result') throw new Error('not a tool_result');
  return typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
}

export function isErrorResult(event: ToolResultEvent): boolean {
  const block = event.message.message.content[0];
  return typeof block !== 'string' && block.type === 'tool_result' && block.is_error === true;
}

/** Records what runs when; checks the scheduling invariants as it goes. */
export class RunLog {
  readonly running = new Map<string, boolean>(); // id → concurrency-safe
  readonly started: string[] = [];
  readonly finished: string[] = [];
  readonly violations: string[] = [];
  maxRunning = 0;

  start(id: string, safe: boolean): void {
    if (!safe && this.running.size > 0) this.violations.push(`unsafe ${id} started beside ${[...this.running.keys()]}`);
    for (const [other, otherSafe] of this.running) if (!otherSafe) this.violations.push(`${id} started beside unsafe ${other}`);
    this.running.set(id, safe);
    this.started.push(id);
    this.maxRunning = Math.max(this.maxRunning, this.running.size);
  }

  end(id: string): void {
    this.running.delete(id);
    this.finished.push(id);
  }
}

const controlInput = z.object({ fail: z.boolean().optional(), patch: z.record(z.string(), z.unknown()).optional() });

export interface ControlledToolsOptions {
  log: RunLog;
  /** Awaited by every call before it finishes; decides the completion order. */
  gate: (toolUseId: string) => Promise<void>;
  /** Records the context each call saw. */
  seen?: Map<string, Readonly<Record<string, unknown>>>;
}

function controlledTool(name: string, safe: boolean, behavior: InterruptBehavior, shellLike: boolean | undefined, o: ControlledToolsOptions): Tool {
  return defineTool({
    name,
    description: `${name} test tool`,
    inputSchema: controlInput,
    isConcurrencySafe: () => safe,
    isReadOnly: () => safe,
    interruptBehavior: behavior,
    ...(shellLike === undefined ? {} : { isShellLike: shellLike }),
    async call(input, ctx) {
      o.seen?.set(ctx.toolUseId, ctx.context);
      o.log.start(ctx.toolUseId, safe);
      try {
        await o.gate(ctx.toolUseId);
      } finally {
        o.log.end(ctx.toolUseId);
      }
      if (input.fail) return { content: `${name} ${ctx.toolUseId} failed`, isError: true };
      return { content: `${name} ${ctx.toolUseId} ok`, ...(input.patch ? { contextModifier: input.patch } : {}) };
    },
  });
}

/**
 * `Safe` (concurrency-safe, cancel on interrupt), `Unsafe` (block), `Shell` (unsafe, shell-like, block),
 * `SafeShell` (safe, shell-like), `SafeBlock` (safe, block); `Bash` and `PowerShell` (unsafe, block) leave
 * `isShellLike` to its default.
 */
export function controlledTools(o: ControlledToolsOptions): Tool[] {
  return [
    controlledTool('Safe', true, 'cancel', false, o),
    controlledTool('Unsafe', false, 'block', false, o),
    controlledTool('Shell', false, 'block', true, o),
    controlledTool('SafeShell', true, 'cancel', true, o),
    controlledTool('SafeBlock', true, 'block', false, o),
    controlledTool('Bash', false, 'block', undefined, o),
    controlledTool('PowerShell', false, 'block', undefined, o),
  ];
}

export function depsFor(tools: Tool[], extra: Partial<ToolCallDeps> = {}): ToolCallDeps {
  return { registry: createToolRegistry(tools), newId: idGenerator(), ...extra };
}

/** A gate per tool_use id, opened by the test. */
export class Gates {
  readonly #gates = new Map<string, Deferred>();
  get(id: string): Deferred {
    let gate = this.#gates.get(id);
    if (!gate) this.#gates.set(id, (gate = deferred()));
    return gate;
  }
  readonly wait = (id: string): Promise<void> => this.get(id).promise;
  open(...ids: string[]): void {
    for (const id of ids) this.get(id).resolve();
  }
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
