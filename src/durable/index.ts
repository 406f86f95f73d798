/** `turnloop/durable`: the loop driven through a journal, so that a run survives the death of its process. */
export { durableQuery, runDurableQuery, interruptedToolText, type DurableQueryOptions, type StartEntry, type EffectEntry } from './durable-query.ts';
export { MemoryJournal, JournalDivergenceError, JournalExhaustedError, type Journal, type JournalEntry, type JournalRunOptions } from './journal.ts';
export { GroupCommitJournal, expandGroups } from './group-commit-journal.ts';
export { codeFingerprint, checkFingerprint, DurableCodeChangedError, type CodeFingerprint } from './fingerprint.ts';
export { exportDurableSessionLog, type ExportedSession } from './export-session-log.ts';
