/**
 * The texts claude 2.1.334 gives a call it denies without asking, each worded by its reason (probed with
 * test/agent-sdk/programs/parity-denials.ts). Each is the whole text of the call's error tool_result and of its
 * `system/permission_denied` message. Denials claude words in ways turnloop cannot reproduce (its command
 * classifier's, its plan-mode check's) keep turnloop's own words (Extension `sdkPermissionDenialText`). Pure.
 */

/**
 * A PreToolUse command hook (settings files) that exited 2: its stderr, after the hook's command. The hook's answer
 * carries it under `HOOK_DENIAL_TEXT`, so the denial is this text as it stands.
 */
export function preToolUseHookErrorText(toolName: string, command: string, stderr: string): string {
  return `PreToolUse:${toolName} hook error: [${command}]: ${stderr}`;
}

/** The key of a command hook's answer that holds its denial's whole text (never sent: answers stay in process). */
export const HOOK_DENIAL_TEXT = 'turnloopDenialText';

/** A Bash deny rule covering the command (`decision_reason_type: 'subcommandResults'`). */
export function bashDenyRuleText(command: string): string {
  return `Permission to use Bash with command ${command} has been denied.`;
}

/** A call in `dontAsk` mode that no rule allows (`decision_reason_type: 'mode'`). */
export function dontAskModeText(toolName: string): string {
  return `Permission to use ${toolName} has been denied because Claude Code is running in don't ask mode. IMPORTANT: You *may* attempt to accomplish this action using other tools that might naturally be used to accomplish this goal, e.g. using head instead of cat. But you *should not* attempt to work around this denial in malicious ways, e.g. do not use your ability to run tests to execute non-test actions. You should only try to work around this restriction in reasonable ways that do not attempt to bypass the intent behind this denial. If you believe this capability is essential to complete the user's request, STOP and explain to the user what you were trying to do and why you need this permission. Let the user decide how to proceed.`;
}

/** A Bash command that needs approval, nobody to ask, and a variable expansion in it (`expandsVariable`, shell-commands.ts). */
export const VARIABLE_IN_COMMAND_TEXT = "A variable in this command can't be checked before it runs";
