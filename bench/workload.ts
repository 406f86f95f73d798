/**
 * The one workload every system runs, and the probe that times it.
 *
 * Invariants:
 * - The script is the same for every system: model call k (1-based) answers with one tool call of `echo` while
 *   k <= turns, then with one text reply. A run therefore makes `turns + 1` model calls and `turns` tool calls.
 * - The model answers at once (no timers, no I/O): whatever time passes between two model calls is the engine's
 *   (plus the trivial echo tool and the adapter that turns the script into the system's own types).
 * - A turn's time is the gap between two consecutive model calls, read from `performance.now()` inside the
 *   model; setup before the first call and teardown after the last are not part of any turn.
 */

/** What the scripted model says on one call. */
export type ScriptedAnswer =
  | { kind: 'tool_call'; id: string; name: 'echo'; input: { text: string } }
  | { kind: 'text'; text: string };

/** The answer to model call `call` (1-based) of a run of `turns` tool turns. */
export function scriptedAnswer(call: number, turns: number): ScriptedAnswer {
  if (call <= turns) return { kind: 'tool_call', id: `call_${call}`, name: 'echo', input: { text: `ping ${call}` } };
  return { kind: 'text', text: 'All done.' };
}

/** The trivial tool: answers its text unchanged. */
export function echo(input: { text: string }): string {
  return input.text;
}

/** One pre-filled history entry, in a neutral form each system converts to its own message type. */
export interface HistoryEntry {
  role: 'user' | 'assistant';
  text: string;
}

/** `size` alternating user/assistant text messages (short, so no system compacts or truncates). */
export function prefilledHistory(size: number): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  for (let i = 0; i < size; i++) entries.push({ role: i % 2 === 0 ? 'user' : 'assistant', text: `earlier message ${i}` });
  return entries;
}

export const PROMPT = 'Call echo until told otherwise.';

/** Records the time of every model call of one run. */
export class TurnProbe {
  readonly callTimes: number[] = [];
  private calls = 0;

  /** Called by the scripted model on entry; returns the script's answer for this call. */
  next(turns: number): ScriptedAnswer {
    this.callTimes.push(performance.now());
    this.calls += 1;
    return scriptedAnswer(this.calls, turns);
  }

  get modelCalls(): number {
    return this.calls;
  }

  /** Per-turn times in microseconds: the gaps between consecutive model calls. */
  turnMicros(): number[] {
    const gaps: number[] = [];
    for (let i = 1; i < this.callTimes.length; i++) gaps.push((this.callTimes[i] - this.callTimes[i - 1]) * 1000);
    return gaps;
  }
}

/** The parameters of one run. */
export interface RunSpec {
  /** Tool turns before the text reply. */
  turns: number;
  /** Pre-filled history length (0 = only the prompt). */
  history: number;
}

/** What one run of one system measured. */
export interface RunResult {
  turnMicros: number[];
  /** Wall time of the whole run, setup included, in microseconds. */
  totalMicros: number;
  modelCalls: number;
  /** Something the run produced, kept alive until the heap is measured (so it counts as retained). */
  retained: unknown;
}

/** A system under test: runs the workload once and reports what the probe saw. */
export interface System {
  name: string;
  /** Short label for tables. */
  label: string;
  run(spec: RunSpec, probe: TurnProbe): Promise<{ retained: unknown }>;
  /** Called before each run, outside the measured window (e.g. record the log a replay folds). */
  before?(spec: RunSpec): Promise<void>;
}

/** Throws unless the run made exactly the scripted number of model calls. */
export function checkRun(system: string, spec: RunSpec, probe: TurnProbe): void {
  if (probe.modelCalls !== spec.turns + 1) {
    throw new Error(`${system}: expected ${spec.turns + 1} model calls, saw ${probe.modelCalls} (turns ${spec.turns}, history ${spec.history})`);
  }
}
