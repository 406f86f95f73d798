/**
 * The tool registry: lookup by name or alias (docs/loop.md §7.1). Invariants: names and aliases are unique across the
 * registry (a clash throws `DuplicateToolNameError` at construction); lookups are exact and case-sensitive; a
 * registry from `createToolRegistry` never changes after it is built. `createRefreshingToolRegistry` follows a tool
 * list that may change (MCP servers announce `tools/list_changed`), swapping its list only when definitions are
 * taken for a model call, so the tools a model may call are exactly the ones it was offered.
 */
import type { ToolUseBlock } from '../../messages/types.ts';
import type { ToolDefinitionForModel } from '../deps.ts';
import { toolDefinitionForModel, type Tool } from './define-tool.ts';
import { TurnloopError } from '../../errors/turnloop-error.ts';

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

/**
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
  const list = [...tools];
  let definitions: ToolDefinitionForModel[] | undefined;
  return {
    tools: list,
    find: (name) => byName.get(name),
    concurrencySafeFor(toolUses) {
      const result: Record<string, boolean> = {};
      for (const toolUse of toolUses) result[toolUse.id] = byName.get(toolUse.name)?.isConcurrencySafe(toolUse.input) ?? false;
      return result;
    },
    // The registry never changes, so the JSON Schemas are converted once, not on every model call.
    definitionsForModel: () => (definitions ??= list.map(toolDefinitionForModel)),
  };
}

/**
 * A registry over a tool list that may change between turns (Claude Code refreshes its tools between iterations).
 * `load` is asked again each time definitions are taken for a model call; a list with other tools than the last
 * (compared one by one, by identity) replaces it from then on.
 *
 * @example
 * const registry = createRefreshingToolRegistry(() => [...createFileTools({ root }), ...mcp.tools]);
 */
export function createRefreshingToolRegistry(load: () => readonly Tool[]): ToolRegistry {
  let source = [...load()];
  let current = createToolRegistry(source);
  return {
    get tools() {
      return current.tools;
    },
    find: (name) => current.find(name),
    concurrencySafeFor: (toolUses) => current.concurrencySafeFor(toolUses),
    definitionsForModel() {
      const next = load();
      if (next.length !== source.length || next.some((tool, i) => tool !== source[i])) {
        current = createToolRegistry(next);
        source = [...next];
      }
      return current.definitionsForModel();
    },
  };
}
