/** Claude Code transcripts: read them, split them into loop runs, turn runs into scenarios, check the engine reproduces them. */
export { parseTranscript, readTranscript, TranscriptFormatError } from './transcript.ts';
export { splitRuns, type RecordedRun } from './runs.ts';
export { runToScenario, scenariosOf, type ClaudeScenario } from './scenario.ts';
export { checkClaudeSession, checkTranscript, checkRun, type RunCheck, type SessionCheck, type TranscriptCheck } from './check.ts';
export { readClaudeSession, subagentFiles, type ChildTranscript, type ClaudeSession, type NotCheckable } from './session.ts';
export { splitThreads, type InlineSidechain } from './sidechains.ts';
