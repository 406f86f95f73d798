/**
 * One inspected run: its session log lines as they are written (the live stream and the recorded log are the same
 * data), its run control, and whether it has ended.
 */
import type { LoopConfig } from '../config/config.ts';
import type { ObservedRun, RunObserver } from '../runtime/query-options.ts';
import type { RedactOptions } from '../replay/redact.ts';
import { createSessionRecorder } from '../replay/session-recorder.ts';
import type { Chart } from '../viz/graph.ts';
import type { Breakpoint } from './breakpoints.ts';
import { RunControl, type RunControlStatus } from './run-control.ts';

export interface LiveSessionSummary {
  id: string;
  name: string;
  lines: number;
  status: RunControlStatus;
}

export type LiveSessionEvent =
  | { kind: 'line'; session: string; line: string }
  | { kind: 'status'; session: string; status: RunControlStatus };

export class LiveSession {
  readonly lines: string[] = [];
  readonly control: RunControl;
  private abortRun: ObservedRun['abort'] | null = null;

  constructor(
    readonly id: string,
    readonly name: string,
    chart: Chart,
    config: LoopConfig,
    options: { startPaused?: boolean; breakpoints?: Breakpoint[] },
    private readonly publish: (event: LiveSessionEvent) => void,
  ) {
    this.control = new RunControl(chart, config, options);
    this.control.subscribe((status) => publish({ kind: 'status', session: id, status }));
  }

  /** The observer that feeds this session from the run (records every step, holds at breakpoints). */
  observe(run: ObservedRun, redact: RedactOptions | undefined, onClose: () => void): RunObserver {
    this.abortRun = run.abort;
    const recorder = createSessionRecorder(
      this.sink,
      { config: run.config, params: run.params, redact },
    );
    return {
      onStep: (step) => {
        recorder(step);
        this.control.onStep(step);
      },
      gate: this.control.gate,
      close: () => {
        recorder.close();
        this.control.end();
        onClose();
      },
    };
  }

  /** Only the control half, for a run whose lines arrive through `sink` (a resumed run records itself). */
  controlOnly(run: ObservedRun, onClose: () => void): RunObserver {
    this.abortRun = run.abort;
    this.control.useConfig(run.config);
    return {
      onStep: this.control.onStep,
      gate: this.control.gate,
      close: () => {
        this.control.end();
        onClose();
      },
    };
  }

  /** Where a recorder writes this session's lines (one write per line, as the session recorder does). */
  readonly sink = { write: (text: string) => this.addLine(text.endsWith('\n') ? text.slice(0, -1) : text) };

  /** The lines a run had before it was attached (a resumed log's valid lines). */
  seed(lines: string[]): void {
    for (const line of lines) this.addLine(line);
  }

  /** Aborts the run through its normal abort path; releases a held step so the abort can be processed. */
  abort(reason = 'abort'): void {
    this.abortRun?.(reason);
  }

  get ended(): boolean {
    return this.control.status().mode === 'ended';
  }

  summary(): LiveSessionSummary {
    return { id: this.id, name: this.name, lines: this.lines.length, status: this.control.status() };
  }

  /** The session log so far, as a file would hold it. */
  logText(): string {
    return this.lines.length === 0 ? '' : `${this.lines.join('\n')}\n`;
  }

  private addLine(line: string): void {
    this.lines.push(line);
    this.publish({ kind: 'line', session: this.id, line });
  }
}
