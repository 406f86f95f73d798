/**
 * The `result` message that ends each turn, from our Terminal (docs/agent-sdk.md has the table):
 * `completed` → `success` (with `is_error: true`, the error text as `result` and `terminal_reason: 'api_error'`
 * when the run ended on an API error, as the real executable reports it); `max_turns` → `error_max_turns`; a
 * spend-cap stop → `error_max_budget_usd`; every other ending → `error_during_execution`. Invariant: every result
 * of an error subtype carries an `errors` array (the SDK joins it and crashes without it) and every result its
 * `terminal_reason`. Pure.
 */
import type { AssistantMessage } from '../messages/types.ts';
import type { Terminal } from '../reducer/outcomes.ts';
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

export type ResultSubtype = 'success' | 'error_during_execution' | 'error_max_turns' | 'error_max_budget_usd';

/** The final text of the turn: the last assistant message's text blocks. */
export function finalText(message: AssistantMessage | undefined): string {
  if (!message) return '';
  return message.message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
}

function subtypeOf(summary: TurnSummary): { subtype: ResultSubtype; errors: string[] } {
  const { terminal } = summary;
  if (summary.budgetExceeded) {
    return { subtype: 'error_max_budget_usd', errors: [`Reached maximum budget ($${summary.budgetExceeded.maxBudgetUsd})`] };
  }
  if (terminal.reason === 'completed') return { subtype: 'success', errors: [] };
  // The engine's own spend cap (`limits.maxCostUsd`, an Extension) is the same kind of stop.
  if (terminal.reason === 'max_budget_usd') return { subtype: 'error_max_budget_usd', errors: [terminal.message] };
  if (terminal.reason === 'max_turns') {
    const limit = terminal.cap === undefined ? summary.maxTurns ?? terminal.turnCount : undefined;
    return { subtype: 'error_max_turns', errors: [limit === undefined ? terminal.message ?? `Reached the ${terminal.cap} cap` : `Reached maximum number of turns (${limit})`] };
  }
  if (summary.interrupted || terminal.reason === 'aborted_streaming' || terminal.reason === 'aborted_tools') {
    return { subtype: 'error_during_execution', errors: ['[Request interrupted by user]'] };
  }
  if (terminal.reason === 'model_error') return { subtype: 'error_during_execution', errors: [terminal.error.message] };
  const message = 'message' in terminal && terminal.message ? terminal.message : `The run ended: ${terminal.reason}`;
  return { subtype: 'error_during_execution', errors: [message] };
}

/** The SDK's `SDKResultMessage` for a finished turn. */
export function resultMessage(summary: TurnSummary): JsonObject {
  const { subtype, errors } = subtypeOf(summary);
  const apiError = ('apiError' in summary.terminal ? summary.terminal.apiError : undefined) ?? summary.lastAssistant?.apiError;
  const isError = subtype !== 'success' || apiError !== undefined;
  const common = {
    type: 'result',
    subtype,
    duration_ms: summary.durationMs,
    duration_api_ms: summary.durationApiMs,
    is_error: isError,
    num_turns: summary.numTurns,
    stop_reason: summary.stopReason ?? summary.lastAssistant?.message.stop_reason ?? null,
    total_cost_usd: summary.totalCostUsd,
    usage: summary.usage,
    modelUsage: summary.modelUsage,
    permission_denials: summary.permissionDenials,
    terminal_reason: summary.terminal.reason,
    uuid: summary.uuid,
    session_id: summary.sessionId,
  };
  if (subtype === 'success') {
    if (!apiError) return { ...common, result: finalText(summary.lastAssistant) };
    // As the real executable: the error text is the result, the reason `api_error` (the SDK reads `result` here).
    return { ...common, terminal_reason: 'api_error', result: apiError.text, api_error_status: apiError.status ?? null };
  }
  return { ...common, errors };
}
