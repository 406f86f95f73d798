/**
 * Builders for what the tool runtime reports. Invariant: a `tool_result` event's `message` is a user message with
 * exactly one `tool_result` block, for the event's `toolUseId`, and `sourceToolUseId` set to it. Texts are the
 * engine's own words.
 */
import type { ToolInputIssue } from './tool-input-schema.ts';
import type { Message, ToolUseBlock, UserMessage } from '../messages/types.ts';
import type { IdGenerator, ToolResultEvent } from '../data/deps.ts';
import type { ToolResultContent } from './define-tool.ts';

export function toolResultMessage(uuid: string, toolUseId: string, content: ToolResultContent, isError: boolean): UserMessage {
  const block = isError
    ? { type: 'tool_result' as const, tool_use_id: toolUseId, content, is_error: true }
    : { type: 'tool_result' as const, tool_use_id: toolUseId, content };
  // Each level its own literal, the same members in the same order: a literal holding a literal is built through
  // the runtime from its boilerplate, several times the cost (docs/architecture.md, "Literals of one level").
  const blocks = [block];
  const message = { role: 'user' as const, content: blocks };
  return { type: 'user', uuid, message, sourceToolUseId: toolUseId };
}

export interface ResultEventParts {
  content: ToolResultContent;
  isError: boolean;
  extra?: Message[];
  preventContinuation?: boolean;
  contextPatch?: Record<string, unknown>;
}

/** Assembles the one event a tool call produces; optional fields appear only when they say something. */
export function toolResultEvent(newId: IdGenerator, toolUseId: string, parts: ResultEventParts): ToolResultEvent {
  const event: ToolResultEvent = {
    type: 'tool_result',
    toolUseId,
    message: toolResultMessage(newId(), toolUseId, parts.content, parts.isError),
  };
  if (parts.extra && parts.extra.length > 0) event.extra = parts.extra;
  if (parts.preventContinuation) event.preventContinuation = true;
  if (parts.contextPatch && Object.keys(parts.contextPatch).length > 0) event.contextPatch = parts.contextPatch;
  return event;
}

/** An error result with nothing else: unknown tool, cancellation, orphan. */
export function errorResultEvent(newId: IdGenerator, toolUse: Pick<ToolUseBlock, 'id'>, text: string): ToolResultEvent {
  return toolResultEvent(newId, toolUse.id, { content: text, isError: true });
}

export function unknownToolText(name: string, known: readonly string[]): string {
  const list = known.length > 0 ? ` Available tools: ${known.join(', ')}.` : '';
  return `Error: there is no tool named "${name}".${list}`;
}

/** One line per problem: where in the input, and what was expected. */
export function invalidInputText(toolName: string, error: { readonly issues: readonly ToolInputIssue[] }): string {
  const lines = error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(input)';
    const missing = issue.code === 'invalid_type' && /received undefined$/.test(issue.message);
    const what = missing ? `required, ${issue.message.replace(/^Invalid input: /, '')}` : issue.message;
    return `- ${where}: ${what}`;
  });
  return `Error: the input for ${toolName} is invalid:\n${lines.join('\n')}`;
}

export function emptyResultText(toolName: string): string {
  return `(${toolName} finished with no output)`;
}

export function isEmptyContent(content: ToolResultContent): boolean {
  return typeof content === 'string' ? content.trim() === '' : content.length === 0;
}

/** A thrown value as readable text. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
