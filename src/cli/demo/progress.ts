/**
 * Live display of a run. On a TTY: one status line (turn, phase, tokens, model calls) redrawn in place, with
 * message lines printed above it. Elsewhere: plain lines only, one per message and per transition.
 */
import type { StepObserver } from '../../effects/query-options.ts';
import type { QueryItem } from '../../messages/types.ts';
import type { LoopState } from '../../reducer/state.ts';
import type { CliIo } from '../cli-io.ts';
import { messageLines } from '../render/message-line.ts';
import type { Style } from '../render/style.ts';

export interface LiveProgress {
  onItem(item: QueryItem): void;
  onStep: StepObserver;
  /** Clears the status line (call before printing anything else). */
  stop(): void;
}

/** `{ sampling: 'streaming' }` → `sampling`; `'completed'` → `completed`. */
export function phaseOf(state: LoopState): string {
  return typeof state.value === 'string' ? state.value : Object.keys(state.value)[0] ?? '?';
}

export function tokensOf(state: LoopState): number {
  return state.context.tokens.reported + state.context.tokens.estimatedSince;
}

export function createLiveProgress(io: CliIo, style: Style): LiveProgress {
  const tty = io.stdout.isTTY === true;
  let status = '';
  const clear = () => {
    if (tty && status) io.stdout.write('\r\u001b[2K');
  };
  const line = (text: string) => {
    clear();
    io.stdout.write(`${text}\n`);
    if (tty && status) io.stdout.write(status);
  };
  return {
    onItem(item) {
      if (item.type === 'stream_event' || item.type === 'request_start') return;
      for (const text of messageLines(item)) line(item.type === 'assistant' && item.apiError ? style.yellow(text) : text);
    },
    onStep({ event, state, effects }) {
      const transition = state.context.transition;
      if (event !== null && transition && effects.some((e) => e.type === 'request_start')) line(style.cyan(`── ${transition.reason} ──`));
      if (!tty) return;
      const c = state.context;
      const next = style.dim(`turn ${c.turnCount} · ${phaseOf(state)} · ${tokensOf(state).toLocaleString('en-US')} tokens · ${c.modelCalls} model call(s)`);
      if (next === status) return;
      clear();
      status = next;
      io.stdout.write(status);
    },
    stop() {
      clear();
      status = '';
    },
  };
}
