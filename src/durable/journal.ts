/**
 * The journal a durable run goes through: every effect runs as `journal.run(name, work)`. Live, `work` runs and
 * its result is recorded before it is returned; on recovery the recorded result is returned and `work` is not run.
 * The durable driver puts into it exactly the run's external inputs (its params, then the events answering each
 * effect), so the journal is the run's event log.
 *
 * Invariants a `Journal` keeps:
 * - Positions are consecutive from 0 in call order; `run` calls are never concurrent (the driver is sequential).
 * - A recorded entry is answered only at its own position and only under its own name: a different name there
 *   means the code took another path than the recorded run did (`JournalDivergenceError`), never a silent answer.
 * - Results are JSON data; what `run` returns live equals what it would return on recovery (the driver JSON-copies
 *   every result so that both paths feed the reducer the same values).
 *
 * `MemoryJournal` keeps the entries in an array (tests, and a run that only needs recovery inside one process);
 * `src/dbos` backs the same interface with DBOS steps in Postgres.
 */
import { TurnloopError } from '../errors/turnloop-error.ts';

export interface JournalRunOptions {
  /**
   * The work touches nothing outside the process (it may be run again after a crash at no cost): a journal may
   * hold its entry and commit it with the next one that is not local (`GroupCommitJournal`).
   */
  local?: boolean;
}

export interface Journal {
  run<T>(name: string, work: () => Promise<T>, options?: JournalRunOptions): Promise<T>;
  /** Commits whatever the journal still holds; called once when the run ends. */
  flush?(): Promise<void>;
}

export interface JournalEntry {
  name: string;
  value: unknown;
}

export class JournalDivergenceError extends TurnloopError {
  constructor(
    readonly position: number,
    readonly recorded: string,
    readonly requested: string,
  ) {
    super('JOURNAL_DIVERGENCE', `journal position ${position} holds '${recorded}', but this run asked for '${requested}': the code no longer follows the recorded run`);
    this.name = 'JournalDivergenceError';
  }
}

/** Thrown by a read-only journal when the run asks for more than was recorded (the end of a running session). */
export class JournalExhaustedError extends TurnloopError {
  constructor(readonly position: number) {
    super('JOURNAL_EXHAUSTED', `the journal ends at position ${position}`);
    this.name = 'JournalExhaustedError';
  }
}

/**
 * Entries in memory. Pass the entries of an earlier (crashed) run to recover it; `readOnly` answers only from them
 * and throws `JournalExhaustedError` past their end (used to export a session without running anything).
 */
export class MemoryJournal implements Journal {
  readonly entries: JournalEntry[];
  private position = 0;

  constructor(entries: readonly JournalEntry[] = [], private readonly options: { readOnly?: boolean } = {}) {
    this.entries = [...entries];
  }

  /** The next position to be answered. */
  get nextPosition(): number {
    return this.position;
  }

  async run<T>(name: string, work: () => Promise<T>): Promise<T> {
    const position = this.position++;
    const recorded = this.entries[position];
    if (recorded) {
      if (recorded.name !== name) throw new JournalDivergenceError(position, recorded.name, name);
      return structuredClone(recorded.value) as T;
    }
    if (this.options.readOnly) throw new JournalExhaustedError(position);
    const value = await work();
    this.entries[position] = { name, value: structuredClone(value) };
    return value;
  }
}
