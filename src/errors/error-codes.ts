/**
 * Every `code` a `TurnloopError` may carry: the stable, machine-readable names of what went wrong (match on them,
 * not on a class or a message). One list, so a new code is a decision made here (the type checker refuses a code
 * that is not in it) and a caller can switch over them exhaustively.
 */
export const ERROR_CODES = [
  // Input: files, flags, options, config, scenarios, logs.
  'USAGE', 'INPUT_FILE', 'OUTPUT_FILE', 'NOT_REGULAR_FILE', 'PATH_NOT_FOUND', 'PATH_OUTSIDE_ROOT', 'UNSAFE_PATTERN', 'LINE_FORMAT',
  'INVALID_CONFIG', 'UNKNOWN_QUERY_OPTION', 'UNSUPPORTED_OPTION', 'INVALID_BASE_URL', 'INVALID_SCENARIO', 'INVALID_FAKE_SCRIPT',
  'INVALID_EVENT', 'UNKNOWN_EVENT', 'UNKNOWN_DIAGRAM', 'VIEWER_INPUT', 'HEADLESS_ARGS', 'MCP_CONFIG_INVALID', 'OTLP_CONFIG_INVALID',
  'SESSION_LOG_MALFORMED', 'TRANSCRIPT_MALFORMED',
  // Session logs, replay and resume.
  'SESSION_LOG_EXISTS', 'LOG_LOCKED', 'SIGNATURE_INVALID', 'REPLAY_DIVERGENCE', 'TREE_REPLAY_DIVERGENCE', 'MACHINE_VERSION_MISMATCH',
  'BAD_TREE_LOG', 'CHILD_RUN_NOT_FOUND', 'CHILD_ANSWER_MISMATCH', 'INDEX_OUT_OF_RANGE', 'NOTHING_TO_RESUME', 'RECORDER_STEP_ORDER',
  // Durable runs and their journals, DBOS, Postgres.
  'JOURNAL_DIVERGENCE', 'JOURNAL_EXHAUSTED', 'JOURNAL_ENTRY_MISSING', 'DURABLE_CODE_CHANGED', 'DBOS_UNAVAILABLE', 'EXECUTOR_ID_TAKEN',
  'POSTGRES_NOT_FOUND', 'POSTGRES_COMMAND_FAILED', 'DEMO_WORKER_FAILED',
  // Tools, model streams, integrations.
  'DUPLICATE_TOOL_NAME', 'DUPLICATE_TOOL_USE', 'TOOL_CANCELLED', 'TOOL_NO_RESULT', 'SCRIPTED_TOOL_ERROR', 'NO_TOOLS',
  'INCOMPLETE_STREAM', 'STORE_OUTSIDE_WORKSPACE', 'MCP_CONNECT_FAILED', 'SDK_CONTROL_REQUEST', 'SDK_SESSION_NOT_FOUND', 'SDK_MCP_CLOSED',
  'INSPECTOR_UNAVAILABLE', 'VIEWER_BUNDLE_MISSING', 'MISSING_GENERATED_BLOCK', 'DEMO_PROJECT_MISSING',
  // The engine's own invariants (a bug if ever thrown).
  'MACHINE_INPUT_MISSING', 'INLINE_FUNCTION_IN_MACHINE', 'MEMO_PRECONDITIONS', 'NO_TERMINAL', 'NO_FALLBACK', 'UNKNOWN_EXECUTOR',
  'UNKNOWN_TOOL_COMMAND', 'UNKNOWN_CONTEXT_LAYER', 'UNKNOWN_MESSAGE_EDIT', 'CONFIG_SCHEMA',
  // A value thrown that was not an Error (`asError`); an argument a function cannot take.
  'NON_ERROR_THROWN', 'BAD_ARGUMENT',
] as const;

export type TurnloopErrorCode = (typeof ERROR_CODES)[number];
