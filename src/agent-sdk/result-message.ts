/**
 * The `result` message that ends each turn: its subtype, is_error, terminal_reason and payload come from one row
 * of `RESULT_TABLE` (result-table.ts, shown in docs/agent-sdk.md), chosen by `endingOf`. Invariant: every result of
 * an error subtype carries a non-empty `errors` array (the SDK joins it and crashes without it). Pure.
 */
import type { AssistantMessage } from '../messages/types.ts';
import type { Terminal } from '../data/outcomes.ts';
import { RESULT_TABLE, type Ending, type ResultSubtype } from './result-table.ts';
import type { JsonObject } from './json-lines.ts';
import type { SdkModelUsage, SdkUsage } from './turn-usage.ts';

export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: Record<string, unknown>;
}

export interface TurnSummary {
  terminal: Terminal;
  /** The turn's model calls, as the real executable counts turns. */
  numTurns: number;
  maxTurns?: number;
  /** Set when the run was stopped by `--max-budget-usd`. */
  budgetExceeded?: { maxBudgetUsd: number };
  /** Set when the run was stopped by an `interrupt` control request. */
  interrupted?: boolean;
  /** Set when the run itself threw (not a model answer): the error's text. */
  crashed?: string;
  /** `--json-schema`: the accepted StructuredOutput input, or how many tries failed when none was accepted. */
  structuredOutput?: { value: unknown } | { failedAttempts: number; lastError?: string };
  lastAssistant?: AssistantMessage;
  /** The last request's stop reason as streamed (`message_delta`); an empty reply has one and no message. */
  stopReason?: string;
  usage: SdkUsage;
  modelUsage: Record<string, SdkModelUsage>;
  totalCostUsd: number;
  durationMs: number;
  durationApiMs: number;
  permissionDenials: PermissionDenial[];
  sessionId: string;
  uuid: string;
}

export type { ResultSubtype } from './result-table.ts';

/** The final text of the turn: the last assistant message's text blocks. */
export function finalText(message: AssistantMessage | undefined): string {
  if (!message) return '';
  return message.message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
}

/** Which row of the table a finished turn is. */
export function endingOf(summary: TurnSummary): Ending {
  const { terminal } = summary;
  if (summary.crashed !== undefined) return 'crashed';
  if (summary.budgetExceeded || terminal.reason === 'max_budget_usd') return 'max_budget_usd';
  if (summary.structuredOutput && 'failedAttempts' in summary.structuredOutput) return 'structured_output_retries';
  // The accepted StructuredOutput call stops the loop as a hook stop would; the real executable calls it completed.
  if (summary.structuredOutput && 'value' in summary.structuredOutput && terminal.reason === 'hook_stopped') return 'completed';
  if (summary.interrupted && terminal.reason !== 'aborted_tools') return 'aborted_streaming';
  if (terminal.reason === 'completed' && apiErrorOf(summary)) return 'completed_api_error';
  return terminal.reason;
}

function apiErrorOf(summary: TurnSummary) {
  return ('apiError' in summary.terminal ? summary.terminal.apiError : undefined) ?? summary.lastAssistant?.apiError;
}

function errorText(ending: Ending, summary: TurnSummary): string {
  const { terminal } = summary;
  switch (ending) {
    case 'crashed':
      return summary.crashed ?? 'the run failed';
    case 'max_budget_usd':
      // The session's --max-budget-usd in the real executable's words; the engine's own spend cap says its own.
      if (summary.budgetExceeded) return `Reached maximum budget ($${summary.budgetExceeded.maxBudgetUsd})`;
      return terminal.reason === 'max_budget_usd' ? terminal.message : 'Reached maximum budget';
    case 'max_turns': {
      if (terminal.reason !== 'max_turns') break;
      const limit = terminal.cap === undefined ? summary.maxTurns ?? terminal.turnCount : undefined;
      return limit === undefined ? terminal.message ?? `Reached the ${terminal.cap} cap` : `Reached maximum number of turns (${limit})`;
    }
    case 'structured_output_retries': {
      const so = summary.structuredOutput;
      if (!so || !('failedAttempts' in so)) break;
      const text = `Failed to provide valid structured output after ${so.failedAttempts} attempts`;
      return so.lastError ? `${text} \u2014 last StructuredOutput error: ${so.lastError}` : text;
    }
    case 'aborted_streaming':
    case 'aborted_tools':
      return '[Request interrupted by user]';
  }
  return 'message' in terminal && terminal.message ? terminal.message : `The run ended: ${terminal.reason}`;
}

/** The SDK's `SDKResultMessage` for a finished turn. */
export function resultMessage(summary: TurnSummary): JsonObject {
  const ending = endingOf(summary);
  const row = RESULT_TABLE[ending];
  const common = {
    type: 'result',
    subtype: row.subtype,
    duration_ms: summary.durationMs,
    duration_api_ms: summary.durationApiMs,
    is_error: row.isError,
    num_turns: summary.numTurns,
    stop_reason: summary.stopReason ?? summary.lastAssistant?.message.stop_reason ?? null,
    total_cost_usd: summary.totalCostUsd,
    usage: summary.usage,
    modelUsage: summary.modelUsage,
    permission_denials: summary.permissionDenials,
    ...(row.terminalReason === undefined ? {} : { terminal_reason: row.terminalReason }),
    uuid: summary.uuid,
    session_id: summary.sessionId,
  };
  switch (row.payload) {
    case 'final text': {
      const so = summary.structuredOutput;
      // With --json-schema, the accepted input is the answer: `result` is its JSON text.
      if (so && 'value' in so) return { ...common, result: JSON.stringify(so.value), structured_output: so.value };
      return { ...common, result: finalText(summary.lastAssistant) };
    }
    case 'empty text':
      return { ...common, result: '' };
    case 'API error text': {
      const apiError = apiErrorOf(summary);
      const text = apiError?.text ?? (summary.terminal.reason === 'model_error' ? summary.terminal.error.message : finalText(summary.lastAssistant));
      return { ...common, result: text, api_error_status: apiError?.status ?? (summary.terminal.reason === 'model_error' ? summary.terminal.error.status ?? null : null) };
    }
    case 'errors':
      return { ...common, errors: [errorText(ending, summary)] };
  }
}

/** The result of a turn a UserPromptSubmit hook kept from running (no model call, no loop). */
export function promptBlockedResult(input: { text: string; sessionId: string; uuid: string }): JsonObject {
  const row = RESULT_TABLE.prompt_blocked;
  const usage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  return {
    type: 'result', subtype: row.subtype, duration_ms: 0, duration_api_ms: 0, is_error: row.isError, num_turns: 0, stop_reason: null,
    total_cost_usd: 0, usage, modelUsage: {}, permission_denials: [], result: input.text, uuid: input.uuid, session_id: input.sessionId,
  };
}
