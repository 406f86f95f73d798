/**
 * Message builders for embedders' tests: conversations, scripted model replies and tool results without
 * hand-written uuids, message ids or tool_use ids. Each builder set numbers its ids from 1, so the same calls
 * in the same order always build the same messages.
 *
 * @example
 * const m = messageBuilders();
 * const callModel = scriptedModelCaller([m.reply.toolUse('Read', { path: 'a.ts' }), m.reply.text('Done.')]);
 * const history = [m.user('Fix it'), m.assistantText('Looking.')];
 */
import type { AssistantContentBlock, AssistantMessage, ToolUseBlock, Usage, UserContentBlock, UserMessage } from '../messages/types.ts';
import type { ScriptedReply } from '../replay/scripted-deps.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

export const BUILDER_MODEL = 'claude-sonnet-4-6';

export interface MessageBuilders {
  user(content: string | UserContentBlock[]): UserMessage;
  /** One assistant message per content block (as the API streams them, docs/loop.md §1). */
  assistant(block: AssistantContentBlock, options?: { usage?: Usage; stopReason?: string | null }): AssistantMessage;
  assistantText(text: string, options?: { usage?: Usage; stopReason?: string | null }): AssistantMessage;
  /** An assistant tool call with a fresh `toolu_` id. */
  toolUse(name: string, input?: unknown): AssistantMessage;
  /** The user message answering a tool call (the message `toolUse` built, or its block). */
  toolResult(toolUse: AssistantMessage | ToolUseBlock, content: string, options?: { isError?: boolean }): UserMessage;
  /** Replies for `scriptedModelCaller`, with fresh message and tool_use ids. */
  reply: {
    text(text: string, usage?: Usage): ScriptedReply;
    toolUse(name: string, input?: unknown, usage?: Usage): ScriptedReply;
    blocks(content: AssistantContentBlock[], usage?: Usage): ScriptedReply;
  };
}

export function messageBuilders(options: { model?: string; idPrefix?: string } = {}): MessageBuilders {
  const model = options.model ?? BUILDER_MODEL;
  const prefix = options.idPrefix ?? '';
  let n = 0;
  const next = (kind: string) => `${kind}${prefix}${String(++n).padStart(4, '0')}`;
  const uuid = () => next('uuid-');
  const toolUseBlock = (name: string, input: unknown): ToolUseBlock => ({ type: 'tool_use', id: next('toolu_'), name, input: input ?? {} });

  const assistant: MessageBuilders['assistant'] = (block, extra = {}) => ({
    type: 'assistant',
    uuid: uuid(),
    message: {
      id: next('msg_'),
      role: 'assistant',
      model,
      content: [block],
      stop_reason: extra.stopReason ?? (block.type === 'tool_use' ? 'tool_use' : 'end_turn'),
      ...(extra.usage ? { usage: extra.usage } : {}),
    },
  });

  return {
    user: (content) => ({ type: 'user', uuid: uuid(), message: { role: 'user', content } }),
    assistant,
    assistantText: (text, extra) => assistant({ type: 'text', text }, extra),
    toolUse: (name, input) => assistant(toolUseBlock(name, input)),
    toolResult: (toolUse, content, extra = {}) => {
      const block = 'type' in toolUse && toolUse.type === 'tool_use' ? toolUse : (toolUse as AssistantMessage).message.content.find((b) => b.type === 'tool_use');
      if (!block || block.type !== 'tool_use') throw new TurnloopError('BAD_ARGUMENT', 'toolResult: expected a tool_use block or an assistant message holding one');
      return {
        type: 'user',
        uuid: uuid(),
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: block.id, content, ...(extra.isError ? { is_error: true } : {}) }] },
        sourceToolUseId: block.id,
      };
    },
    reply: {
      text: (text, usage) => scripted([{ type: 'text', text }], 'end_turn', usage),
      toolUse: (name, input, usage) => scripted([toolUseBlock(name, input)], 'tool_use', usage),
      blocks: (content, usage) => scripted(content, content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn', usage),
    },
  };

  function scripted(content: AssistantContentBlock[], stopReason: string, usage: Usage | undefined): ScriptedReply {
    return { id: next('msg_'), content, stop_reason: stopReason, ...(usage ? { usage } : {}) };
  }
}
