/**
 * Anthropic message params (`{role, content}`) → engine messages (`src/messages/types.ts`). Pure; ids come from
 * the given generator so a simulation stays deterministic. `cache_control` is dropped (the engine does not use it).
 */
import type { IdGenerator } from '../data/deps.ts';
import type { AssistantContentBlock, Message, UserContentBlock } from '../messages/types.ts';
import type { MessageParam } from './scenario-schema.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

type ParamBlock = Exclude<MessageParam['content'], string>[number];

function withoutCacheControl<T extends { cache_control?: unknown }>(block: T): Omit<T, 'cache_control'> {
  const { cache_control: _ignored, ...rest } = block;
  return rest;
}

function userBlock(block: ParamBlock): UserContentBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
    case 'document':
      return withoutCacheControl(block) as UserContentBlock;
    case 'tool_result': {
      const content = (block.content ?? '') as Extract<UserContentBlock, { type: 'tool_result' }>['content'];
      return { type: 'tool_result', tool_use_id: block.tool_use_id, content, ...(block.is_error === undefined ? {} : { is_error: block.is_error }) };
    }
    default:
      throw new TurnloopError('INVALID_SCENARIO', `a user message cannot hold a ${block.type} block`);
  }
}

function assistantBlock(block: ParamBlock): AssistantContentBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'thinking':
    case 'redacted_thinking':
      return block;
    default:
      throw new TurnloopError('INVALID_SCENARIO', `an assistant message cannot hold a ${block.type} block`);
  }
}

/**
 * @example
 * toEngineMessages([{ role: 'user', content: 'hi' }], counterIds('m')) // [{ type: 'user', uuid: 'm-1', ... }]
 */
export function toEngineMessages(params: readonly MessageParam[], newId: IdGenerator, model: string): Message[] {
  let responses = 0;
  return params.map((param): Message => {
    if (param.role === 'user') {
      const content = typeof param.content === 'string' ? param.content : param.content.map(userBlock);
      return { type: 'user', uuid: newId(), message: { role: 'user', content } };
    }
    const content = typeof param.content === 'string' ? [{ type: 'text' as const, text: param.content }] : param.content.map(assistantBlock);
    responses += 1;
    return {
      type: 'assistant',
      uuid: newId(),
      message: { id: `msg_history_${responses}`, role: 'assistant', model, content, stop_reason: null },
    };
  });
}
