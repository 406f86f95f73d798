/**
 * Live display of a run. On a TTY: one status line (turn, phase, tokens, model calls, and the elapsed time when
 * given a start) redrawn in place, with message lines printed above it. Elsewhere: plain lines only, one per
 * message and per transition.
 */
import type { StepObserver } from '../../runtime/query-options.ts';
import type { QueryItem } from '../../messages/types.ts';
import type { LoopState } from '../../data/state.ts';
import type { CliIo } from '../cli-io.ts';
import { messageLines } from '../render/message-line.ts';
import type { Style } from '../render/style.ts';

export interface LiveProgress {
  onItem(item: QueryItem): void;
  onStep: StepObserver;
  /** A line on stderr (a retry, a warning), printed above the status line. */
  note(text: string): void;
  /** Clears the status line (call before printing anything else). */
  stop(): void;
}

export interface LiveProgressOptions {
  /** Wall-clock start (ms): adds the elapsed time to the status line, redrawn every second. */
  startedAt?: number;
}

/** `{ sampling: 'streaming' }` → `sampling`; `'completed'` → `completed`. */
export function phaseOf(state: LoopState): string {
  return typeof state.value === 'string' ? state.value : Object.keys(state.value)[0] ?? '?';
}

export function tokensOf(state: LoopState): number {
  return state.context.tokens.reported + state.context.tokens.estimatedSince;
}

export function createLiveProgress(io: CliIo, style: Style, options: LiveProgressOptions = {}): LiveProgress {
  const tty = io.stdout.isTTY === true;
  let status = '';
  let last: LoopState | null = null;
  let ticker: ReturnType<typeof setInterval> | undefined;
  const clear = () => {
    if (tty && status) io.stdout.write('\r\u001b[2K');
  };
  const line = (text: string, stream: 'stdout' | 'stderr' = 'stdout') => {
    clear();
    io[stream].write(`${text}\n`);
    if (tty && status) io.stdout.write(status);
  };
  const elapsed = () => (options.startedAt === undefined ? '' : ` · ${Math.round((Date.now() - options.startedAt) / 1000)} s`);
  const redraw = () => {
    if (!tty || last === null) return;
    const c = last.context;
    const next = style.dim(`turn ${c.turnCount} · ${phaseOf(last)} · ${tokensOf(last).toLocaleString('en-US')} tokens · ${c.modelCalls} model call(s)${elapsed()}`);
    if (next === status) return;
    clear();
    status = next;
    io.stdout.write(status);
  };
  return {
    onItem(item) {
      if (item.type === 'stream_event' || item.type === 'request_start') return;
      for (const text of messageLines(item)) line(item.type === 'assistant' && item.apiError ? style.yellow(text) : text);
    },
    onStep({ event, state, effects }) {
      const transition = state.context.transition;
      if (event !== null && transition && effects.some((e) => e.type === 'request_start')) line(style.cyan(`── ${transition.reason} ──`));
      last = state;
      if (tty && options.startedAt !== undefined && ticker === undefined) ticker = setInterval(redraw, 1000).unref();
      redraw();
    },
    note: (text) => line(text, 'stderr'),
    stop() {
      clear();
      status = '';
      if (ticker !== undefined) clearInterval(ticker);
      ticker = undefined;
    },
  };
}
