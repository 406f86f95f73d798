/**
 * The one piece of mutable state of the context layers: the context-collapse store, shared by the layer runner
 * (which stages and commits spans) and the collapse drainer (which commits on a prompt-too-long). The store inside
 * is plain data, replaced (never mutated) on every change.
 */
import { EMPTY_COLLAPSE_STORE, type CollapseStore } from './context-collapse.ts';

export interface CollapseCell {
  store: CollapseStore;
}

export function createCollapseCell(store: CollapseStore = EMPTY_COLLAPSE_STORE): CollapseCell {
  return { store };
}
