/**
 * The tool registry: lookup by name or alias (SPEC §7.1). Invariants: names and aliases are unique across the
 * registry (a clash throws `DuplicateToolNameError` at construction); lookups are exact and case-sensitive; the
 * registry never changes after it is built.
 */
import type { ToolUseBlock } from '../../messages/types.ts';
import type { ToolDefinitionForModel } from '../deps.ts';
import { toolDefinitionForModel, type Tool } from './define-tool.ts';

export class DuplicateToolNameError extends Error {
  readonly code = 'DUPLICATE_TOOL_NAME';
  constructor(readonly toolName: string) {
    super(`two tools claim the name "${toolName}"`);
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
