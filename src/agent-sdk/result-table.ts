/**
 * The `result` message of every ending, as the real executable (claude 2.1.334) reports it: one row per Terminal of
 * the loop (docs/loop.md §5), plus the two endings that are not a Terminal of their own (a `completed` run whose last
 * message is an API error; a crash of the run). docs/agent-sdk.md shows this table (`resultTableMarkdown`, checked
 * by test/unit/agent-sdk/result-table.test.ts). `seen` names the side-by-side program (test/agent-sdk/programs) or the
 * probe that showed the row on the real executable, or says why the row cannot be reached offline. Pure.
 */
import type { TerminalReason } from '../data/outcomes.ts';

export type ResultSubtype =
  | 'success'
  | 'error_during_execution'
  | 'error_max_turns'
  | 'error_max_budget_usd'
  | 'error_max_structured_output_retries';

/** What the row's message carries besides subtype, is_error and terminal_reason. */
export type ResultPayload =
  /** `result`: the last assistant message's text. */
  | 'final text'
  /** `result: ''` (the last message is a tool_result). */
  | 'empty text'
  /** `result`: the API error's text, and `api_error_status`. */
  | 'API error text'
  /** `errors: [...]`, no `result`. */
  | 'errors';

export interface ResultRow {
  subtype: ResultSubtype;
  isError: boolean;
  /** Absent: the result has no `terminal_reason` (no loop ran). */
  terminalReason?: string;
  payload: ResultPayload;
  /** The `errors[0]` text, when the payload is `errors`. */
  errorText?: string;
  seen: string;
}

export type Ending = TerminalReason | 'completed_api_error' | 'structured_output_retries' | 'prompt_blocked' | 'crashed';

const API_ERROR_ROW = { subtype: 'success', isError: true, payload: 'API error text' } as const;

export const RESULT_TABLE: Readonly<Record<Ending, ResultRow>> = {
  completed: { subtype: 'success', isError: false, terminalReason: 'completed', payload: 'final text', seen: 'a text answer' },
  completed_api_error: { ...API_ERROR_ROW, terminalReason: 'api_error', seen: 'an API error ending (a 403)' },
  stop_hook_prevented: { subtype: 'success', isError: false, terminalReason: 'stop_hook_prevented', payload: 'final text', seen: 'a Stop hook that stops' },
  hook_stopped: { subtype: 'success', isError: false, terminalReason: 'hook_stopped', payload: 'empty text', seen: 'a PreToolUse hook that stops the turn' },
  max_turns: {
    subtype: 'error_max_turns', isError: true, terminalReason: 'max_turns', payload: 'errors',
    errorText: 'Reached maximum number of turns (N)', seen: 'maxTurns: 1 with a tool call',
  },
  max_budget_usd: {
    subtype: 'error_max_budget_usd', isError: true, terminalReason: 'budget_exhausted', payload: 'errors',
    errorText: 'Reached maximum budget ($X)', seen: 'maxBudgetUsd below one reply\'s cost: the whole reply kept, its tools not run, no further request, 1 turn (suite program)',
  },
  structured_output_retries: {
    subtype: 'error_max_structured_output_retries', isError: true, terminalReason: 'structured_output_retry_exhausted', payload: 'errors',
    errorText: 'Failed to provide valid structured output after N attempts',
    seen: 'structured output that never matches',
  },
  aborted_streaming: {
    subtype: 'error_during_execution', isError: true, terminalReason: 'aborted_streaming', payload: 'errors',
    errorText: '[Request interrupted by user]', seen: 'an interrupt (claude\'s errors[0] is a diagnostic line instead)',
  },
  aborted_tools: {
    subtype: 'error_during_execution', isError: true, terminalReason: 'aborted_tools', payload: 'errors',
    errorText: '[Request interrupted by user]', seen: 'an interrupt during a tool',
  },
  prompt_too_long: { ...API_ERROR_ROW, terminalReason: 'prompt_too_long', seen: 'a prompt-too-long 400 (probe)' },
  image_error: { ...API_ERROR_ROW, terminalReason: 'image_error', seen: 'not reached offline (needs an image); as prompt_too_long, the same rung of the loop' },
  blocking_limit: { ...API_ERROR_ROW, terminalReason: 'blocking_limit', seen: 'not reached offline (needs a context past the blocking limit); as prompt_too_long' },
  model_error: { ...API_ERROR_ROW, terminalReason: 'model_error', seen: 'not reached offline (claude retries every scripted error it does not end on); the loop emits an API-error message, as for prompt_too_long' },
  prompt_blocked: {
    subtype: 'success', isError: false, payload: 'final text',
    seen: 'a UserPromptSubmit hook that blocks; the result is the warning\'s text, after a system/informational message',
  },
  // No loop terminal was reached, so none is reported: claude's own crash result has no terminal_reason either.
  crashed: {
    subtype: 'error_during_execution', isError: true, payload: 'errors', errorText: 'the error',
    seen: 'the run itself threw (a bug or a broken dependency), never a model answer; claude\'s own (a corrupt .claude.json, probed) is the same, no terminal_reason',
  },
};

const PAYLOAD_TEXT: Record<ResultPayload, string> = {
  'final text': '`result`: the last answer\'s text',
  'empty text': "`result: ''`",
  'API error text': '`result`: the error text; `api_error_status`',
  errors: '`errors`',
};

/** The table as docs/agent-sdk.md shows it. */
export function resultTableMarkdown(): string {
  const lines = [
    '| ending | subtype | is_error | terminal_reason | carries | seen on claude |',
    '|---|---|---|---|---|---|',
  ];
  for (const [ending, row] of Object.entries(RESULT_TABLE)) {
    const carries = row.payload === 'errors' ? `\`errors: ["${row.errorText}"]\`` : PAYLOAD_TEXT[row.payload];
    const reason = row.terminalReason === undefined ? 'none' : `\`${row.terminalReason}\``;
    lines.push(`| \`${ending}\` | \`${row.subtype}\` | ${row.isError} | ${reason} | ${carries} | ${row.seen} |`);
  }
  return lines.join('\n');
}
