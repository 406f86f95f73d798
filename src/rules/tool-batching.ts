/**
 * Partitions tool calls into batches (docs/loop.md §7.3): consecutive concurrency-safe calls form one concurrent batch;
 * every other call runs alone, in order. Pure.
 */
import type { ToolUseBlock } from '../messages/types.ts';
import type { ToolBatch } from '../data/effects.ts';

export function partitionToolCalls(toolUses: readonly ToolUseBlock[], concurrencySafe: Record<string, boolean>): ToolBatch[] {
  const batches: ToolBatch[] = [];
  for (const toolUse of toolUses) {
    const safe = concurrencySafe[toolUse.id] === true;
    const last = batches[batches.length - 1];
    if (safe && last?.concurrent) last.toolUses.push(toolUse);
    else batches.push({ concurrent: safe, toolUses: [toolUse] });
  }
  return batches;
}
