/**
 * Runs the user's pre- and post-tool hooks in registration order and folds their answers. Pre hooks: input
 * changes chain (each hook sees the previous one's input); the strongest decision wins (deny > ask > allow);
 * `stop` ends the chain at once. Post hooks: every hook runs; blocking errors and prevent-continuation requests
 * become attachment messages. A throwing hook propagates: the caller turns it into an error result.
 */
import type { Message } from '../messages/types.ts';
import type { IdGenerator } from '../data/deps.ts';
import type { PermissionBehavior, ToolCallResult, ToolContext } from './define-tool.ts';
import type { PostToolHook, PreToolHook } from './call-deps.ts';

export interface PreHookOutcome {
  messages: Message[];
  input: unknown;
  inputChanged: boolean;
  decision?: PermissionBehavior;
  reason?: string;
  /** `reason` is the denial's whole text (`PreToolHookResult.reasonIsText`). */
  reasonIsText?: boolean;
  preventContinuation: boolean;
  stopReason?: string;
  stop: boolean;
}

const STRENGTH: Record<PermissionBehavior, number> = { allow: 1, ask: 2, deny: 3 };

export function contextAttachment(newId: IdGenerator, name: string, content: string): Message {
  return { type: 'attachment', uuid: newId(), attachment: { type: 'context', name, content } };
}

/** A tool hook's context for the model, worded as Claude Code words it (`PreToolUse:Bash hook additional context: ...`). */
function hookContext(newId: IdGenerator, event: 'PreToolUse' | 'PostToolUse', toolName: string, content: string): Message {
  return { type: 'attachment', uuid: newId(), attachment: { type: 'hook_additional_context', hookName: `${event}:${toolName}`, content } };
}

/** What no pre-tool hook at all says: nothing, and the input unchanged. */
export function noPreHookOutcome(input: unknown): PreHookOutcome {
  // The list made before the literal (here and below): a literal holding a literal is built through the runtime
  // from its boilerplate (docs/architecture.md, "Literals of one level").
  const messages: Message[] = [];
  return { messages, input, inputChanged: false, preventContinuation: false, stop: false };
}

export async function runPreToolHooks(
  hooks: readonly PreToolHook[],
  base: ToolContext & { toolName: string; input: unknown; newId: IdGenerator },
): Promise<PreHookOutcome> {
  const out = noPreHookOutcome(base.input);
  for (const hook of hooks) {
    const answer = await hook({ ...base, input: out.input });
    if (!answer) continue;
    if (answer.messages) out.messages.push(...answer.messages);
    if (answer.additionalContext) out.messages.push(hookContext(base.newId, 'PreToolUse', base.toolName, answer.additionalContext));
    if (answer.updatedInput !== undefined) {
      out.input = answer.updatedInput;
      out.inputChanged = true;
    }
    if (answer.decision && (!out.decision || STRENGTH[answer.decision] > STRENGTH[out.decision])) {
      out.decision = answer.decision;
      out.reason = answer.reason;
      if (answer.reasonIsText) out.reasonIsText = true;
      else delete out.reasonIsText;
    }
    if (answer.preventContinuation) out.preventContinuation = true;
    if (answer.stopReason && !out.stopReason) out.stopReason = answer.stopReason;
    if (answer.stop) {
      out.stop = true;
      break;
    }
  }
  return out;
}

export interface PostHookOutcome {
  messages: Message[];
  preventContinuation: boolean;
  stopReason?: string;
}

/** What no post-tool hook at all says: nothing. */
export function noPostHookOutcome(): PostHookOutcome {
  const messages: Message[] = [];
  return { messages, preventContinuation: false };
}

export async function runPostToolHooks(
  hooks: readonly PostToolHook[],
  base: ToolContext & { toolName: string; input: unknown; result: ToolCallResult; newId: IdGenerator; durationMs?: number },
): Promise<PostHookOutcome> {
  const out = noPostHookOutcome();
  for (const hook of hooks) {
    const answer = await hook(base);
    if (!answer) continue;
    if (answer.messages) out.messages.push(...answer.messages);
    if (answer.additionalContext) out.messages.push(hookContext(base.newId, 'PostToolUse', base.toolName, answer.additionalContext));
    if (answer.blockingError) {
      out.messages.push({
        type: 'attachment',
        uuid: base.newId(),
        attachment: { type: 'hook_blocking_error', message: answer.blockingError, toolUseId: base.toolUseId },
      });
    }
    if (answer.preventContinuation) out.preventContinuation = true;
    if (answer.stopReason && !out.stopReason) out.stopReason = answer.stopReason;
  }
  return out;
}
