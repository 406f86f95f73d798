/**
 * A durable run's journal as a turnloop session log, readable by `turnloop replay`, `viz` and what-if unchanged.
 *
 * The journal holds the params and the events; the log needs the same events in the order the reducer took them,
 * with the hash chain over the states between. So the export re-drives the run with a read-only journal (nothing
 * is executed: every answer comes from the entries) and records its steps, exactly as a live recording would.
 * A running session (entries ending mid-run) exports the steps so far; the log then ends where the journal does.
 */
import { recordTo, type RecordTarget } from '../replay/session-recorder.ts';
import type { RedactOptions } from '../replay/redact.ts';
import { durableQuery, type DurableQueryOptions } from './durable-query.ts';
import { JournalExhaustedError, MemoryJournal, type JournalEntry } from './journal.ts';

export interface ExportedSession {
  /** True when the journal reached the run's terminal. */
  complete: boolean;
  /** Entries the export answered from. */
  entries: number;
}

/**
 * @example
 * await exportDurableSessionLog(journal.entries, sessionOptions, 'session.jsonl');
 * replay('session.jsonl').terminal // the run's terminal
 */
export async function exportDurableSessionLog(
  entries: readonly JournalEntry[],
  options: Omit<DurableQueryOptions, 'journal'>,
  target: RecordTarget,
  redact?: RedactOptions,
): Promise<ExportedSession> {
  const journal = new MemoryJournal(entries, { readOnly: true });
  // Only the export records: the session's own recording, telemetry and inspector stay with the live run.
  const { record: _record, telemetry: _telemetry, inspect: _inspect, ...session } = options;
  const run = durableQuery({ ...session, journal, signal: undefined, onStep: undefined, observers: [recordTo(target, { redact })] });
  try {
    while (!(await run.next()).done);
    return { complete: true, entries: journal.nextPosition };
  } catch (error) {
    if (error instanceof JournalExhaustedError) return { complete: false, entries: error.position };
    throw error;
  }
}
