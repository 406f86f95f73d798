/**
 * Builders for the messages the engine writes itself. Pure: ids are passed in. Texts are the engine's own words.
 */
import type {
  ApiErrorInfo,
  ApiErrorKind,
  AssistantMessage,
  Attachment,
  AttachmentMessage,
  SystemMessage,
  SystemSubtype,
  ToolUseBlock,
  UserMessage,
} from './types.ts';

export const INTERRUPTED_TEXT = '[The user interrupted the request]';
export const INTERRUPTED_DURING_TOOLS_TEXT = '[The user interrupted the request while tools were running]';

export function userMessage(uuid: string, content: UserMessage['message']['content'], isMeta = false): UserMessage {
  return isMeta
    ? { type: 'user', uuid, message: { role: 'user', content }, isMeta: true }
    : { type: 'user', uuid, message: { role: 'user', content } };
}

export function systemMessage(
  uuid: string,
  subtype: SystemSubtype,
  content: string,
  level: SystemMessage['level'] = 'info',
  data?: Record<string, unknown>,
): SystemMessage {
  return data ? { type: 'system', uuid, subtype, content, level, data } : { type: 'system', uuid, subtype, content, level };
}

export function attachmentMessage(uuid: string, attachment: Attachment): AttachmentMessage {
  return { type: 'attachment', uuid, attachment };
}

/** An assistant message that stands for an API error (docs/loop.md §1); `tags` carry the API's status and error type. */
export function apiErrorMessage(
  uuid: string,
  model: string,
  kind: ApiErrorKind,
  text: string,
  tags: { status?: number; errorType?: string } = {},
): AssistantMessage {
  const apiError: ApiErrorInfo = { kind, text };
  if (tags.status !== undefined) apiError.status = tags.status;
  if (tags.errorType !== undefined) apiError.errorType = tags.errorType;
  return {
    type: 'assistant',
    uuid,
    message: { id: uuid, role: 'assistant', model, content: [{ type: 'text', text }], stop_reason: 'stop_sequence' },
    apiError,
  };
}

/** The single error tool_result that answers a tool_use that never ran to completion. */
export function toolErrorResult(uuid: string, toolUse: ToolUseBlock, reason: string): UserMessage {
  return {
    type: 'user',
    uuid,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: reason, is_error: true }] },
    sourceToolUseId: toolUse.id,
  };
}

export function recoveryPrompt(): string {
  return (
    'Your last reply was cut off at the output token limit. Carry on exactly where it stopped, mid-sentence if ' +
    'need be: no apology, no recap of what you already wrote. Split the remaining work into smaller pieces.'
  );
}

export function tokenBudgetNudge(pct: number, turnTokens: number, budget: number): string {
  return (
    `You have used ${pct}% of this turn's token budget (${turnTokens} of ${budget} output tokens). ` +
    'Keep working on the task; do not stop to summarize.'
  );
}

export const STOP_HOOK_PREVENTED_TEXT = 'A stop hook ended the turn.';

export function stopHookSummaryText(hookCount: number, blockingErrors: readonly string[], stoppedBy: string | null): string {
  const parts = [`Ran ${hookCount} stop ${hookCount === 1 ? 'hook' : 'hooks'}`];
  if (blockingErrors.length > 0) parts.push(`${blockingErrors.length} asked to continue: ${blockingErrors.join('; ')}`);
  if (stoppedBy !== null) parts.push(`stopped the turn: ${stoppedBy}`);
  return `${parts.join('; ')}.`;
}

export function stopHookFeedback(error: string): string {
  return `A stop hook asked you to continue:\n${error}`;
}
