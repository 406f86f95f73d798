/**
 * The conversation column: entries (`conversation.ts`) drawn as a person reads them, text put with `textContent`
 * only. Selecting an entry shows its step; showing a step marks its entry and scrolls to it when the mark moved.
 *
 * Only a window of entries around the mark (or around where the reader scrolled) is in the page, between two
 * spacers whose heights are estimated per entry kind: a session of 8,000 steps has thousands of entries, and a
 * page holding them all pays for them at every step (each move of the mark lays the column out again). Moving
 * the mark inside the window costs a class change; outside it, the window is redrawn around it.
 */
import type { ConversationEntry, EntryKind } from './conversation.ts';
import { EntryIndex } from './conversation.ts';
import type { RunNode } from './run-tree.ts';

/** Characters of an entry shown before "… N more" (the payload and message panels have the full text). */
const SHOWN_CHARS = 1500;
/** Entries drawn at once, and how close to the window's edge the mark may come before it is redrawn. */
const WINDOW = 30;
const MARGIN = 6;
/** Estimated heights (px) of entries not drawn, by kind (what the CSS gives a typical entry). */
const ESTIMATE: Record<EntryKind, number> = { prompt: 60, answer: 62, thinking: 50, tool: 58, result: 58, error: 50, compact: 40, note: 50, subagent: 60, run: 26, end: 42 };
/** Kinds the messages-only filter hides. */
const NOT_MESSAGES = new Set<EntryKind>(['tool', 'result', 'thinking', 'note']);

export interface ConversationView {
  /** Marks the entry of `run`'s `step` (the last one at or before it) and scrolls to it when the mark moved. */
  show(run: RunNode, step: number): void;
  /** Adds entries at the end (a live run's new steps). */
  append(entries: readonly ConversationEntry[]): void;
  /** Keeps only prompts, answers, errors and endings (true), or every entry. */
  messagesOnly(on: boolean): void;
  readonly entries: readonly ConversationEntry[];
}

export function createConversationView(box: HTMLElement, select: (run: RunNode, step: number) => void): ConversationView {
  const entries: ConversationEntry[] = [];
  const index = new EntryIndex([]);
  /** `offsets[i]`: estimated height of entries 0..i-1 (for the spacers and for finding where the reader is). */
  let offsets = [0];
  let onlyMessages = false;
  const top = document.createElement('div');
  const bottom = document.createElement('div');
  box.append(top, bottom);
  /** The window drawn: entries [lo, hi), their elements in order. */
  let lo = 0;
  let hi = 0;
  let drawn: HTMLElement[] = [];
  let marked = -1;
  /** Where the page last scrolled the column to show the mark (the scroll handler leaves that one alone). */
  let scrolledTo = -1;

  const estimate = (e: ConversationEntry) => (onlyMessages && NOT_MESSAGES.has(e.kind) ? 0 : ESTIMATE[e.kind]);
  function measure(from: number): void {
    offsets.length = from + 1;
    for (let i = from; i < entries.length; i++) offsets.push(offsets[i]! + estimate(entries[i]!));
  }

  function element(e: ConversationEntry, i: number): HTMLElement {
    const el = document.createElement('div');
    el.className = `conv conv-${e.kind}${i === marked ? ' conv-current' : ''}`;
    el.dataset['i'] = String(i);
    const head = e.kind === 'subagent' ? `${e.who} ▸ open` : e.kind === 'run' ? '' : `${e.who} · step ${e.step}`;
    if (head) {
      const who = document.createElement('div');
      who.className = 'conv-who';
      who.textContent = head;
      el.appendChild(who);
    }
    const text = document.createElement('div');
    text.className = 'conv-text';
    text.textContent = e.text.length > SHOWN_CHARS ? `${e.text.slice(0, SHOWN_CHARS)}… (${e.text.length - SHOWN_CHARS} more characters: see the message panel)` : e.text;
    el.appendChild(text);
    return el;
  }

  /** Draws entries [from, to) between the spacers. */
  function draw(from: number, to: number): void {
    lo = Math.max(0, from);
    hi = Math.min(entries.length, to);
    for (const el of drawn) el.remove();
    drawn = [];
    const fragment = document.createDocumentFragment();
    for (let i = lo; i < hi; i++) fragment.appendChild((drawn[i - lo] = element(entries[i]!, i)));
    box.insertBefore(fragment, bottom);
    top.style.height = `${offsets[lo]}px`;
    bottom.style.height = `${offsets[entries.length]! - offsets[hi]!}px`;
  }

  const around = (i: number) => draw(i - WINDOW / 2, i + WINDOW / 2);

  /** The first entry whose estimated place is at or below `y` (binary search on the offsets). */
  function entryAt(y: number): number {
    let a = 0;
    let b = entries.length - 1;
    while (a < b) {
      const mid = (a + b + 1) >> 1;
      if (offsets[mid]! <= y) a = mid;
      else b = mid - 1;
    }
    return a;
  }

  box.addEventListener('scroll', () => {
    const y = box.scrollTop;
    if (y === scrolledTo) return; // the page's own scroll to the mark
    // The reader scrolled past the drawn entries: draw the ones now in view (the spacers hold estimated heights).
    const drawnTop = top.offsetHeight;
    const drawnBottom = bottom.offsetTop;
    if (y < drawnTop) around(entryAt(y));
    else if (y + box.clientHeight > drawnBottom && hi < entries.length) around(entryAt(offsets[hi]! + (y - drawnBottom)));
  });

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
      drawn[marked - lo]?.classList.remove('conv-current');
      marked = i;
      if (i < 0) return;
      const edge = Math.min(MARGIN, Math.floor((hi - lo) / 2));
      if (i < lo + edge && lo > 0 || i >= hi - edge && hi < entries.length || i < lo || i >= hi) around(i);
      const el = drawn[i - lo]!;
      el.classList.add('conv-current');
      el.scrollIntoView({ block: 'nearest' });
      scrolledTo = box.scrollTop;
    },
    append(added) {
      const from = entries.length;
      index.add(added, from);
      entries.push(...added);
      measure(from);
      // A live run: new entries are drawn when the window reaches the end, else only the spacer grows.
      if (hi === from && hi - lo < WINDOW) draw(lo, lo + WINDOW);
      else bottom.style.height = `${offsets[entries.length]! - offsets[hi]!}px`;
    },
    messagesOnly(on) {
      onlyMessages = on;
      box.classList.toggle('messages-only', on);
      measure(0);
      draw(lo, hi);
    },
    entries,
  };
}
