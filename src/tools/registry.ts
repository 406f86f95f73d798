/**
 * The tool registry: lookup by name or alias (docs/loop.md §7.1). Invariants: names and aliases are unique across the
 * registry (a clash throws `DuplicateToolNameError` at construction); lookups are exact and case-sensitive; a
 * registry from `createToolRegistry` never changes after it is built. `createRefreshingToolRegistry` follows a tool
 * list that may change (MCP servers announce `tools/list_changed`), swapping its list only when definitions are
 * taken for a model call, so the tools a model may call are exactly the ones it was offered.
 */
import type { ToolUseBlock } from '../messages/types.ts';
import type { ToolDefinitionForModel } from '../data/deps.ts';
import { toolDefinitionForModel, type Tool } from './define-tool.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

export class DuplicateToolNameError extends TurnloopError {
  constructor(readonly toolName: string) {
    super('DUPLICATE_TOOL_NAME', `two tools claim the name "${toolName}"`);
    this.name = 'DuplicateToolNameError';
  }
}

export interface ToolRegistry {
  readonly tools: readonly Tool[];
  /** The tool answering to this name or alias. */
  find(name: string): Tool | undefined;
  /** Per tool_use id: may this call run beside others? Unknown tools and invalid inputs answer false. */
  concurrencySafeFor(toolUses: readonly ToolUseBlock[]): Record<string, boolean>;
  /** Definitions to offer the model, in registry order (aliases are not offered). */
  definitionsForModel(): ToolDefinitionForModel[];
}

/** A fixed registry's own state, beside its methods (which read it through `this`). */
interface FixedRegistry extends ToolRegistry {
  readonly byName: Map<string, Tool>;
  /** The definitions for the model, converted on first use: the registry never changes. */
  definitions: ToolDefinitionForModel[] | undefined;
}

/**
 * Call its methods on the registry (`registry.find(name)`), not detached: they read it through `this`, so that
 * every registry shares the same functions and their optimized code (docs/architecture.md, "Shapes that outlive a
 * run").
 *
 * @example
 * const registry = createToolRegistry(createFileTools({ root }));
 * registry.find('Read')?.isReadOnly({ file_path: 'a.txt' }); // true
 */
export function createToolRegistry(tools: readonly Tool[]): ToolRegistry {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    for (const name of [tool.name, ...tool.aliases]) {
      if (byName.has(name)) throw new DuplicateToolNameError(name);
      byName.set(name, tool);
    }
  }
  const registry: FixedRegistry = { tools: [...tools], byName, definitions: undefined, find, concurrencySafeFor, definitionsForModel };
  return registry;
}

function find(this: FixedRegistry, name: string): Tool | undefined {
  return this.byName.get(name);
}

function concurrencySafeFor(this: FixedRegistry, toolUses: readonly ToolUseBlock[]): Record<string, boolean> {
  const result = flagTable();
  for (const toolUse of toolUses) {
    const safe = this.byName.get(toolUse.name)?.isConcurrencySafe(toolUse.input) ?? false;
    // On an object with `Object.prototype`, assigning `__proto__` calls its setter, which ignores a boolean: the
    // flag would be lost (and left out of the log). Defined as an own member, as `JSON.parse` of the log makes it.
    if (toolUse.id === '__proto__') Object.defineProperty(result, '__proto__', { value: safe, writable: true, enumerable: true, configurable: true });
    else result[toolUse.id] = safe;
  }
  return result;
}

/**
 * An empty plain object (`Object.prototype`, as a parsed log's flags) that V8 keeps as a hash table. Keyed by
 * tool-use ids, new in every reply: on a `{}` each id was a new hidden class (a transition of the one empty-literal
 * shape every `{}` shares, dead after the next full GC), so the store and every reader missed their inline caches
 * on every turn. A prototype-less object avoided that, but the reducer keeps a reply's flags in its state only when
 * they are plain data, so it copied them by a spread, a new hidden class per reply again (`mergedFlags`, a twentieth
 * of a cold turn's samples). Deleting a member that is not the last turns an object into a hash table; the same
 * keys, order, prototype and JSON as `{}`.
 */
function flagTable(): Record<string, boolean> {
  const table: Record<string, boolean> = { a: false, b: false };
  delete table.a;
  delete table.b;
  return table;
}

function definitionsForModel(this: FixedRegistry): ToolDefinitionForModel[] {
  // The registry never changes, so the JSON Schemas are converted once, not on every model call.
  return (this.definitions ??= this.tools.map(toolDefinitionForModel));
}

/**
 * A registry over a tool list that may change between turns (Claude Code refreshes its tools between iterations).
 * `load` is asked again each time definitions are taken for a model call; a list with other tools than the last
 * (compared one by one, by identity) replaces it from then on. Its methods, too, are called on it.
 *
 * @example
 * const registry = createRefreshingToolRegistry(() => [...createFileTools({ root }), ...mcp.tools]);
 */
export function createRefreshingToolRegistry(load: () => readonly Tool[]): ToolRegistry {
  const source = [...load()];
  const registry: RefreshingRegistry = {
    load,
    source,
    current: createToolRegistry(source),
    get tools() {
      return this.current.tools;
    },
    find: findCurrent,
    concurrencySafeFor: concurrencySafeForCurrent,
    definitionsForModel: refreshedDefinitions,
  };
  return registry;
}

interface RefreshingRegistry extends ToolRegistry {
  readonly load: () => readonly Tool[];
  /** The list `current` was built from. */
  source: Tool[];
  current: ToolRegistry;
}

function findCurrent(this: RefreshingRegistry, name: string): Tool | undefined {
  return this.current.find(name);
}

function concurrencySafeForCurrent(this: RefreshingRegistry, toolUses: readonly ToolUseBlock[]): Record<string, boolean> {
  return this.current.concurrencySafeFor(toolUses);
}

function refreshedDefinitions(this: RefreshingRegistry): ToolDefinitionForModel[] {
  const next = this.load();
  if (next.length !== this.source.length || next.some((tool, i) => tool !== this.source[i])) {
    this.current = createToolRegistry(next);
    this.source = [...next];
  }
  return this.current.definitionsForModel();
}
