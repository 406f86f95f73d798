/**
 * Adapts the tool runtime of this folder to the interpreter's `ToolRuntime` port (`src/effects/tool-runtime.ts`).
 * Invariants: one tool-use context (`context`) lives as long as the runtime and is shared by every batch and
 * streaming session it runs, so a patch made in one turn is seen by the tools of the next; tool definitions and
 * concurrency answers come from the one registry.
 */
import { randomUUID } from 'node:crypto';
import type { IdGenerator } from '../deps.ts';
import type { ToolRuntime } from '../tool-runtime.ts';
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

/**
 * @example
 * const tools = createToolRuntime({ tools: createFileTools({ root }), newId, timeoutMs: config.toolTimeoutMs });
 * for await (const item of query({ prompt, tools })) print(item);
 */
export function createToolRuntime(options: CreateToolRuntimeOptions): DefaultToolRuntime {
  const { tools, newId, maxConcurrency, initialContext, ...rest } = options;
  const registry = isToolList(tools)
    ? createToolRegistry(tools)
    : typeof tools === 'function' ? createRefreshingToolRegistry(tools) : tools;
  const deps: ToolCallDeps = { ...rest, registry, newId: newId ?? randomUUID };
  const context = createToolUseContextRef(initialContext);
  return {
    registry,
    context,
    definitions: () => registry.definitionsForModel(),
    concurrencySafe: (toolUses) => registry.concurrencySafeFor(toolUses),
    isIdempotent: (toolUse) => registry.find(toolUse.name)?.idempotent ?? false,
    runBatches: (batches, signal) => runToolBatches(batches, deps, { signal, context, maxConcurrency }),
    startStreaming: (signal) => new StreamingToolExecutor({ deps, signal, context, maxConcurrency }),
  };
}

function isToolList(tools: CreateToolRuntimeOptions['tools']): tools is readonly Tool[] {
  return Array.isArray(tools);
}
