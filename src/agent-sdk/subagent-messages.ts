/**
 * What an SDK session shows of a subagent's run, as the real executable shows it: a foreground one's prompt as a
 * user message inside the Task call, its tool calls and their results (each reply that calls tools after a
 * `task_progress`), and all its own messages only when the program asks (`forwardSubagentText`);
 * a background one's replies (and the note of an interrupt that stopped it), its prompt only when asked. Its usage
 * counts either way.
 */
import type { RunObserverFactory } from '../runtime/query-options.ts';
import type { AssistantMessage, Message } from '../messages/types.ts';
import { INTERRUPTED_DURING_TOOLS_TEXT, INTERRUPTED_TEXT } from '../messages/message-factory.ts';
import type { JsonObject } from './json-lines.ts';
import { toSdkMessage, type MessageFrame } from './sdk-messages.ts';

export function isInterruptionNote(content: unknown): boolean {
  return content === INTERRUPTED_TEXT || content === INTERRUPTED_DURING_TOOLS_TEXT;
}

export interface SubagentMessageDeps {
  /** Whether the Task call runs its child in the background (session-tasks.ts). */
  isBackground(toolUseId: string): boolean;
  /** The program's `forwardSubagentText`. */
  forwardText(): boolean;
  frame(parentToolUseId: string | null): MessageFrame;
  write(message: JsonObject): void;
  /** Counts a child's reply into the turn's usage. */
  countAssistant(message: AssistantMessage): void;
  /** Keeps a background child's abort with the turn that launched it (an interrupt of that turn stops it). */
  onBackground(abort: () => void): void;
  /** Writes the task's `task_progress` before a foreground subagent's reply that calls tools (session-tasks.ts). */
  progress?(toolUseId: string, reply: AssistantMessage): void;
  /** The fields claude 2.1.334 adds to a subagent's messages (`agent_id`, `subagent_type`, `task_description`: session-tasks.ts). */
  fields?(toolUseId: string): JsonObject | undefined;
}

/**
 * What claude 2.1.334 shows of a foreground subagent's message (probed, test/agent-sdk/programs/conf-subagent-shell.ts):
 * a reply that calls tools, with its tool_use blocks alone, and the user message of their results; undefined for
 * anything else (its prompt is shown apart, its last reply is the task's report).
 */
function toolCallsOf(message: Message): Message | undefined {
  if (message.type === 'user') return Array.isArray(message.message.content) && message.message.content.some((b) => b.type === 'tool_result') ? message : undefined;
  if (message.type !== 'assistant') return undefined;
  const calls = message.message.content.filter((b) => b.type === 'tool_use');
  return calls.length === 0 ? undefined : { ...message, message: { ...message.message, content: calls } };
}

/** The observer of each child run (`childObservers`) that writes what the program is shown of it. */
export function subagentMessages(deps: SubagentMessageDeps): (link: { toolUseIds: string[] }) => RunObserverFactory {
  return (link) => (observed) => {
    const background = link.toolUseIds.length === 1 && deps.isBackground(link.toolUseIds[0]);
    // Its own signal is the Task call's, which has ended: the abort is kept with the turn.
    if (background) deps.onBackground(() => observed.abort('user'));
    return {
      onStep: (step) => {
        // A nested subagent (a subagent's Agent call) shows nothing of its own unless the program asks for all
        // (`forwardSubagentText`), as claude's: its task messages (its `task_progress` before each reply that calls
        // tools, claude 2.1.334) and its report, the outer subagent's tool result, tell of it.
        if (link.toolUseIds.length > 1 && !deps.forwardText()) {
          for (const effect of step.effects) {
            if (effect.type !== 'emit' || effect.message.type !== 'assistant') continue;
            deps.countAssistant(effect.message);
            deps.progress?.(link.toolUseIds.at(-1)!, effect.message);
          }
          return;
        }
        const frame = deps.frame(link.toolUseIds.at(-1) ?? null);
        const fields = link.toolUseIds.length > 0 ? deps.fields?.(link.toolUseIds.at(-1)!) : undefined;
        const write = (message: JsonObject) => deps.write(fields ? { ...message, ...fields } : message);
        if (step.event === null && !(background && !deps.forwardText())) {
          const prompt = step.state.context.messages.filter((m) => m.type === 'user').at(-1);
          const mapped = prompt && toSdkMessage(prompt, frame, { partialMessages: false });
          if (mapped) write(mapped);
        }
        for (const effect of step.effects) {
          if (effect.type !== 'emit') continue;
          if (effect.message.type === 'assistant') deps.countAssistant(effect.message);
          const shown = effect.message.type === 'assistant' || (effect.message.type === 'user' && isInterruptionNote(effect.message.message.content));
          const foregroundCall = !background && !deps.forwardText() && link.toolUseIds.length === 1 ? toolCallsOf(effect.message) : undefined;
          if (foregroundCall === undefined && !deps.forwardText() && !(background && shown)) continue;
          if (foregroundCall?.type === 'assistant') deps.progress?.(link.toolUseIds[0], foregroundCall);
          const mapped = toSdkMessage(foregroundCall ?? effect.message, frame, { partialMessages: false });
          if (mapped) write(mapped);
          // A forwarded foreground reply that calls tools is followed by its task's progress (claude 2.1.334).
          if (foregroundCall === undefined && !background && effect.message.type === 'assistant' && link.toolUseIds.length > 0) deps.progress?.(link.toolUseIds.at(-1)!, effect.message);
        }
      },
    };
  };
}
