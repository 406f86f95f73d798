/**
 * Adapts the tool runtime of this folder to the interpreter's `ToolRuntime` port (`src/data/tool-runtime.ts`).
 * Invariants: one tool-use context (`context`) lives as long as the runtime and is shared by every batch and
 * streaming session it runs, so a patch made in one turn is seen by the tools of the next; tool definitions and
 * concurrency answers come from the one registry.
 */
import { randomUUID } from 'node:crypto';
import type { ToolUseBlock } from '../messages/types.ts';
import type { ToolBatch } from '../data/effects.ts';
import type { IdGenerator, ToolDefinitionForModel, ToolResultEvent } from '../data/deps.ts';
import type { StreamingToolSession, ToolRuntime } from '../data/tool-runtime.ts';
import { createToolUseContextRef, type ToolCallDeps, type ToolUseContextRef } from './call-deps.ts';
import type { Tool } from './define-tool.ts';
import { createRefreshingToolRegistry, createToolRegistry, type ToolRegistry } from './registry.ts';
import { runToolBatches } from './run-batches.ts';
import { StreamingToolExecutor } from './streaming-executor.ts';

export interface CreateToolRuntimeOptions extends Omit<ToolCallDeps, 'registry' | 'newId'> {
  /** A fixed list, a registry, or a function asked for the current list before each model call. */
  tools: readonly Tool[] | ToolRegistry | (() => readonly Tool[]);
  /** Ids of tool-result messages; defaults to random UUIDs (pass the run's generator for deterministic logs). */
  newId?: IdGenerator;
  /** Concurrency-safe tools run at once (config `limits.maxToolConcurrency`); default 10. */
  maxConcurrency?: number;
  initialContext?: Record<string, unknown>;
}

export interface DefaultToolRuntime extends ToolRuntime {
  readonly registry: ToolRegistry;
  readonly context: ToolUseContextRef;
}

/** A runtime's own state, beside the port's methods (which read it through `this`). */
interface ToolRuntimeObject extends DefaultToolRuntime {
  readonly deps: ToolCallDeps;
  readonly maxConcurrency: number | undefined;
}

/**
 * Call its methods on the runtime (`runtime.definitions()`), not detached: they read the runtime through `this`.
 * A runtime lives as long as its run, and the interpreter calls it on every turn: functions shared by every runtime
 * keep their optimized code from run to run, where closures made per run would start cold after each full GC
 * (docs/architecture.md, "Shapes that outlive a run").
 *
 * @example
 * const tools = createToolRuntime({ tools: createFileTools({ root }), newId, timeoutMs: config.toolTimeoutMs });
 * for await (const item of query({ prompt, tools })) print(item);
 */
export function createToolRuntime(options: CreateToolRuntimeOptions): DefaultToolRuntime {
  const { tools, newId, maxConcurrency, initialContext, ...rest } = options;
  const registry = isToolList(tools)
    ? createToolRegistry(tools)
    : typeof tools === 'function' ? createRefreshingToolRegistry(tools) : tools;
  const runtime: ToolRuntimeObject = {
    registry,
    context: createToolUseContextRef(initialContext),
    deps: toolCallDeps(rest, registry, newId ?? randomUUID),
    maxConcurrency,
    definitions,
    concurrencySafe,
    isIdempotent,
    runBatches,
    startStreaming,
  };
  return runtime;
}

/**
 * The deps every tool call reads, as one literal (every field listed: `satisfies` fails to compile when
 * `ToolCallDeps` gains one), so their shape is the same in every run.
 */
function toolCallDeps(rest: Omit<ToolCallDeps, 'registry' | 'newId'>, registry: ToolRegistry, newId: IdGenerator): ToolCallDeps {
  return {
    registry,
    newId,
    canUseTool: rest.canUseTool,
    preToolHooks: rest.preToolHooks,
    postToolHooks: rest.postToolHooks,
    timeoutMs: rest.timeoutMs,
    clock: rest.clock,
    runChild: rest.runChild,
  } satisfies Record<keyof ToolCallDeps, unknown>;
}

function definitions(this: ToolRuntimeObject): ToolDefinitionForModel[] {
  return this.registry.definitionsForModel();
}

function concurrencySafe(this: ToolRuntimeObject, toolUses: readonly ToolUseBlock[]): Record<string, boolean> {
  return this.registry.concurrencySafeFor(toolUses);
}

function isIdempotent(this: ToolRuntimeObject, toolUse: ToolUseBlock): boolean {
  return this.registry.find(toolUse.name)?.idempotent ?? false;
}

function runBatches(this: ToolRuntimeObject, batches: ToolBatch[], signal: AbortSignal): AsyncIterable<ToolResultEvent> {
  return runToolBatches(batches, this.deps, { signal, context: this.context, maxConcurrency: this.maxConcurrency });
}

function startStreaming(this: ToolRuntimeObject, signal: AbortSignal): StreamingToolSession {
  return new StreamingToolExecutor({ deps: this.deps, signal, context: this.context, maxConcurrency: this.maxConcurrency });
}

function isToolList(tools: CreateToolRuntimeOptions['tools']): tools is readonly Tool[] {
  return Array.isArray(tools);
}
