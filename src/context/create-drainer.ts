/**
 * The default CollapseDrainer (docs/loop.md §4.9.1): commits every pending collapse of the shared store at once. The reducer
 * decides when (never twice in a row, docs/loop.md §9.5); this only does it.
 */
import { drainCollapses } from './context-collapse.ts';
import type { CollapseDrainer } from '../data/deps.ts';
import type { CollapseCell } from './collapse-cell.ts';

export function createCollapseDrainer(cell: CollapseCell): CollapseDrainer {
  return async ({ messages }) => {
    const drained = drainCollapses(messages, cell.store);
    cell.store = drained.store;
    return { committed: drained.committed, edits: drained.edits };
  };
}
