/** The page's control requests (`POST /api/sessions/:id/control`), validated at the boundary. */
import { z } from 'zod';
import { CONTINUE_REASONS, TERMINAL_REASONS } from '../data/outcomes.ts';
import type { Breakpoint } from './breakpoints.ts';

const breakpointSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('model_call') }),
  z.strictObject({ kind: z.literal('tools') }),
  z.strictObject({ kind: z.literal('continue'), reason: z.enum(CONTINUE_REASONS).optional() }),
  z.strictObject({ kind: z.literal('transition'), id: z.string().min(1).max(200) }),
  z.strictObject({ kind: z.literal('terminal'), reason: z.enum(TERMINAL_REASONS).optional() }),
]);

const controlSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.enum(['pause', 'step', 'resume', 'abort']) }),
  z.strictObject({ action: z.literal('breakpoints'), breakpoints: z.array(breakpointSchema).max(100) }),
]);

export type ControlRequest =
  | { action: 'pause' | 'step' | 'resume' | 'abort' }
  | { action: 'breakpoints'; breakpoints: Breakpoint[] };

export function parseControlRequest(text: string): { ok: true; request: ControlRequest } | { ok: false; error: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, error: 'the body is not JSON' };
  }
  const result = controlSchema.safeParse(data);
  if (result.success) return { ok: true, request: result.data as ControlRequest };
  const issue = result.error.issues[0]!;
  return { ok: false, error: `${issue.path.join('.') || 'body'}: ${issue.message}; expected {"action":"pause"|"step"|"resume"|"abort"} or {"action":"breakpoints","breakpoints":[...]}` };
}
