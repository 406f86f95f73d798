/** Claude Code transcripts: read them, split them into loop runs, turn runs into scenarios, check the engine reproduces them. */
export { parseTranscript, readTranscript, TranscriptFormatError } from './transcript.ts';
export { splitRuns, type RecordedRun } from './runs.ts';
export { runToScenario, scenariosOf, type ClaudeScenario } from './scenario.ts';
export { checkClaudeSession, checkTranscript, checkRun, type RunCheck, type TranscriptCheck } from './check.ts';
