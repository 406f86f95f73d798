/**
 * What a tool defined without `validateInput` or `checkPermissions` answers (`defineTool`): every input is valid,
 * every call allowed. One shared function each, so the pipeline (`run-tool-use.ts`) knows them by identity and
 * does not call them: their answers are known.
 */
import type { PermissionResult, ValidationResult } from './define-tool.ts';

/** The `validateInput` of a tool defined without one. */
export async function alwaysValid(): Promise<ValidationResult> {
  return { ok: true };
}

/** The `checkPermissions` of a tool defined without one. */
export async function alwaysAllowed(): Promise<PermissionResult> {
  return { behavior: 'allow' };
}
