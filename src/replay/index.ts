/** Record & replay: session logs, replay with verification, time travel, what-if, resume. */
export { createSessionRecorder, recordTo, paramsFromInitialState, type RecordTarget, type SessionRecorder, type SessionRecorderOptions } from './session-recorder.ts';
export { replay, foldSessionLog, type ReplayOptions, type ReplayResult, type FoldedStep } from './replay.ts';
export { stateAt, IndexOutOfRangeError, type StateAtResult } from './time-travel.ts';
export { whatIf, type WhatIfOverrides, type WhatIfReport, type StepBehaviour } from './what-if.ts';
export { resumeFromLog, type ResumeOptions } from './resume.ts';
export { replayTree, replayChildren, recordChildrenBeside, childLogDir, childLogPath, childLogFiles, descendantLogFiles, TreeReplayDivergenceError, type TreeReplayResult } from './child-logs.ts';
export { whatIfTree, childRunLog, type TreeWhatIfReport, type ChildWhatIf } from './what-if-tree.ts';
export { PendingEffectTracker, awaitedEffectTypes, type PendingWork } from './pending-effects.ts';
export { loadSessionLog, parseSessionLogText, type ParsedSessionLog, type SessionLogSource } from './parse-session-log.ts';
export { ReplayDivergenceError, MachineVersionMismatchError, SessionLogParseError, SessionLogExistsError, ChildRunNotFoundError } from './errors.ts';
export { sessionLogLineSchema, SESSION_LOG_FORMAT, SESSION_LOG_VERSION, ENGINE_VERSION, type SessionHeader, type SessionEventLine } from './session-log-schema.ts';
export { createRedactor, redactText, secretValuesFromEnv, REDACTED, type RedactOptions, type Redactor } from './redact.ts';
export { signSessionLog, verifySessionLog, signLogBytes, verifyLogBytes, loadSigningKey, SignatureError, type LogSignature, type SigningKey } from './sign-log.ts';
export { machineHash } from './machine-hash.ts';
export { parseEvent, loopEventSchema, messageSchema, InvalidEventError } from '../data/event-schema.ts';
