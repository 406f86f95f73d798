/**
 * `repairToolPairing()`: makes a history from outside (caller's initial messages, a resumed log, an imported
 * transcript) safe to send (docs/loop.md §11, §9.9), as Claude Code does when it normalizes messages for the API. Pure.
 *
 * It reasons on API turns the way `toApiMessages` builds them: consecutive assistant messages (one per content
 * block, API-error messages aside) form one assistant turn; the user, attachment and compaction-summary messages
 * after it form the next user turn; tombstones, tool-use summaries, other system messages and API-error messages
 * are sent to no one and are kept where they are.
 *
 * Invariants of the result:
 * - every tool_use id appears once in the whole history: a repeated id is removed from the later assistant
 *   message (a message left without blocks is dropped);
 * - every tool_use is answered by exactly one tool_result in the user turn that follows its assistant turn: a
 *   missing one gets a synthetic error result, inserted where that user turn ends (or at the end of the history);
 * - a tool_result that answers no tool_use of the assistant turn just before it (stray, or a second answer) is
 *   removed; a user message left without content is dropped;
 * - nothing else changes, and a history that needs no repair is returned as the same array.
 */
import type { AssistantMessage, Message, ToolUseBlock, UserMessage } from './types.ts';

export interface PairingRepairs {
  /** tool_use ids that got a synthetic error result. */
  answered: string[];
  /** tool_use ids whose tool_result blocks were removed (stray or answered twice). */
  droppedResults: string[];
  /** Repeated tool_use ids removed from a later assistant message. */
  droppedToolUses: string[];
}

export interface RepairOptions {
  /** Uuid of the n-th synthetic result message (n from 1); pure callers derive it from their run id. */
  syntheticUuid: (n: number) => string;
  /** Text of a synthetic result. */
  reason?: string;
}

export const MISSING_RESULT_TEXT = 'No result was recorded for this tool call; the history was repaired before it was sent.';

type Role = 'assistant' | 'user' | null;

function roleOf(message: Message): Role {
  switch (message.type) {
    case 'assistant':
      return message.apiError ? null : 'assistant';
    case 'user':
    case 'attachment':
      return 'user';
    case 'system':
      return message.subtype === 'compact_boundary' && typeof message.data?.summary === 'string' ? 'user' : null;
    default:
      return null;
  }
}

export function repairToolPairing(
  messages: readonly Message[],
  options: RepairOptions,
): { messages: Message[]; repairs: PairingRepairs } {
  const repairs: PairingRepairs = { answered: [], droppedResults: [], droppedToolUses: [] };
  const out: Message[] = [];
  const seenToolUses = new Set<string>();
  let turn: Role = null;
  /** tool_uses of the last assistant turn, in order, and which of them the following user turn answered. */
  let open: ToolUseBlock[] = [];
  let answeredIds = new Set<string>();
  let changed = false;

  const closeUserTurn = () => {
    for (const toolUse of open) {
      if (answeredIds.has(toolUse.id)) continue;
      out.push(syntheticResult(options.syntheticUuid(repairs.answered.length + 1), toolUse, options.reason ?? MISSING_RESULT_TEXT));
      repairs.answered.push(toolUse.id);
      changed = true;
    }
    open = [];
    answeredIds = new Set();
  };

  for (const message of messages) {
    const role = roleOf(message);
    if (role === 'assistant') {
      const kept = withoutRepeatedToolUses(message as AssistantMessage, seenToolUses, repairs);
      if (turn === 'user') closeUserTurn();
      turn = 'assistant';
      if (kept !== message) changed = true;
      if (!kept) continue;
      for (const block of kept.message.content) if (block.type === 'tool_use') open.push(block);
      out.push(kept);
      continue;
    }
    if (role === 'user') {
      turn = 'user';
      const kept = message.type === 'user' ? withoutStrayResults(message, open, answeredIds, repairs) : message;
      if (kept !== message) changed = true;
      if (kept) out.push(kept);
      continue;
    }
    out.push(message);
  }
  closeUserTurn();
  return { messages: changed ? out : (messages as Message[]), repairs };
}

function withoutRepeatedToolUses(message: AssistantMessage, seen: Set<string>, repairs: PairingRepairs): AssistantMessage | null {
  const content = message.message.content.filter((block) => {
    if (block.type !== 'tool_use') return true;
    if (seen.has(block.id)) {
      repairs.droppedToolUses.push(block.id);
      return false;
    }
    seen.add(block.id);
    return true;
  });
  if (content.length === message.message.content.length) return message;
  return content.length === 0 ? null : { ...message, message: { ...message.message, content } };
}

function withoutStrayResults(
  message: UserMessage,
  open: readonly ToolUseBlock[],
  answered: Set<string>,
  repairs: PairingRepairs,
): UserMessage | null {
  const blocks = message.message.content;
  if (typeof blocks === 'string') return message;
  const content = blocks.filter((block) => {
    if (block.type !== 'tool_result') return true;
    const expected = open.some((toolUse) => toolUse.id === block.tool_use_id) && !answered.has(block.tool_use_id);
    if (expected) answered.add(block.tool_use_id);
    else repairs.droppedResults.push(block.tool_use_id);
    return expected;
  });
  if (content.length === blocks.length) return message;
  return content.length === 0 ? null : { ...message, message: { ...message.message, content } };
}

function syntheticResult(uuid: string, toolUse: ToolUseBlock, reason: string): UserMessage {
  return {
    type: 'user',
    uuid,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: reason, is_error: true }] },
    isMeta: true,
    sourceToolUseId: toolUse.id,
  };
}
