/**
 * The conversation column: one element per entry (`conversation.ts`), built once (a live run appends), text put
 * with `textContent` only. Selecting an entry shows its step; showing a step marks its entry and, when the mark
 * moves, scrolls it into view. Entries off screen are skipped by the browser's layout (`content-visibility`), so a
 * long session costs little to show and nothing per step beyond moving the mark.
 */
import type { ConversationEntry } from './conversation.ts';
import { EntryIndex } from './conversation.ts';
import type { RunNode } from './run-tree.ts';

/** Characters of an entry shown before "… N more" (the payload and message panels have the full text). */
const SHOWN_CHARS = 1500;

export interface ConversationView {
  /** Marks the entry of `run`'s `step` (the last one at or before it) and scrolls to it when the mark moved. */
  show(run: RunNode, step: number): void;
  /** Adds entries at the end (a live run's new steps). */
  append(entries: readonly ConversationEntry[]): void;
  readonly entries: readonly ConversationEntry[];
}

export function createConversationView(box: HTMLElement, select: (run: RunNode, step: number) => void): ConversationView {
  const entries: ConversationEntry[] = [];
  const elements: HTMLElement[] = [];
  const index = new EntryIndex([]);
  let marked = -1;

  function element(e: ConversationEntry, i: number): HTMLElement {
    const el = document.createElement('div');
    el.className = `conv conv-${e.kind}`;
    el.dataset['i'] = String(i);
    const head = document.createElement('div');
    head.className = 'conv-who';
    head.textContent = e.kind === 'subagent' ? `${e.who} ▸ open` : e.kind === 'run' ? '' : `${e.who} · step ${e.step}`;
    const text = document.createElement('div');
    text.className = 'conv-text';
    text.textContent = e.text.length > SHOWN_CHARS ? `${e.text.slice(0, SHOWN_CHARS)}… (${e.text.length - SHOWN_CHARS} more characters: see the message panel)` : e.text;
    if (head.textContent) el.appendChild(head);
    el.appendChild(text);
    return el;
  }

  function append(added: readonly ConversationEntry[]): void {
    const fragment = document.createDocumentFragment();
    index.add(added, entries.length);
    for (const e of added) {
      const el = element(e, entries.length);
      entries.push(e);
      elements.push(el);
      fragment.appendChild(el);
    }
    box.appendChild(fragment);
  }

  box.addEventListener('click', (ev) => {
    const el = (ev.target as HTMLElement).closest('[data-i]') as HTMLElement | null;
    if (!el) return;
    const e = entries[Number(el.dataset['i'])];
    if (e) select(e.run, e.step);
  });

  return {
    show(run, step) {
      const i = index.at(run, step);
      if (i === marked) return;
      elements[marked]?.classList.remove('conv-current');
      marked = i;
      const el = elements[i];
      if (!el) return;
      el.classList.add('conv-current');
      el.scrollIntoView({ block: 'nearest' });
    },
    append,
    entries,
  };
}
