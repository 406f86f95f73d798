/**
 * The permission decision of one call (docs/loop.md §7.2). Invariants, in order:
 * 1. a `deny` from anyone (pre-tool hook, the tool's `checkPermissions`, the host's `canUseTool`) wins;
 * 2. a hook `allow` settles an open `ask`, never a `deny`;
 * 3. an `ask` nobody settles is a denial (the engine has no one to ask);
 * 4. without `canUseTool`, the tool's own decision stands.
 */
import type { PermissionBehavior, PermissionResult, Tool, ToolContext } from './define-tool.ts';
import type { CanUseTool } from './call-deps.ts';

export type PermissionOutcome = { allowed: true; updatedInput?: unknown } | { allowed: false; message: string };

export interface PermissionRequest {
  tool: Tool;
  input: unknown;
  ctx: ToolContext;
  hookDecision?: PermissionBehavior;
  hookReason?: string;
  /** `hookReason` is the denial's whole text. */
  hookReasonIsText?: boolean;
  canUseTool?: CanUseTool;
}

/** The text of a denied call's error tool_result. */
export function permissionDeniedText(toolName: string, reason: string | undefined): string {
  const why = reason?.trim() ? reason.trim() : 'no reason was given';
  return `Permission to use ${toolName} was denied: ${why}`;
}

function denied(toolName: string, reason: string | undefined): PermissionOutcome {
  return { allowed: false, message: permissionDeniedText(toolName, reason) };
}

export async function decidePermission(request: PermissionRequest): Promise<PermissionOutcome> {
  const { tool, ctx, hookDecision, canUseTool } = request;
  if (hookDecision === 'deny') {
    return request.hookReasonIsText && request.hookReason ? { allowed: false, message: request.hookReason } : denied(tool.name, request.hookReason ?? 'a pre-tool hook refused the call');
  }

  const toolDecision: PermissionResult = await tool.checkPermissions(request.input as never, ctx);
  if (toolDecision.behavior === 'deny') return denied(tool.name, toolDecision.message);
  let input = toolDecision.updatedInput ?? request.input;

  const finalDecision: PermissionResult = canUseTool
    ? await canUseTool(tool, input, { ...ctx, toolDecision, ...(hookDecision ? { hookDecision } : {}) })
    : toolDecision;
  if (finalDecision.behavior === 'deny') {
    return finalDecision.exactMessage && finalDecision.message ? { allowed: false, message: finalDecision.message } : denied(tool.name, finalDecision.message);
  }
  if (canUseTool && finalDecision.updatedInput !== undefined) input = finalDecision.updatedInput;
  if (finalDecision.behavior === 'ask' && hookDecision !== 'allow') {
    return denied(tool.name, finalDecision.message ?? 'the call needs approval and nobody granted it');
  }
  return input === request.input ? { allowed: true } : { allowed: true, updatedInput: input };
}
