/**
 * The subagent tool's names in an SDK session. claude 2.1.334 calls it `Agent` in the request, hook inputs,
 * permission questions and denials; its `init` message still lists it as `Task` (`LEGACY_SUBAGENT_TOOL_NAME`),
 * which also stays an alias, so a call, a rule, a matcher or an option naming `Task` works. The loop's own Task
 * tool (the CLI's, the original's name) is unchanged.
 */
export const SUBAGENT_TOOL_NAME = 'Agent';
export const LEGACY_SUBAGENT_TOOL_NAME = 'Task';

/** Both names, either of which names the subagent tool. */
export const SUBAGENT_TOOL_NAMES: readonly string[] = [LEGACY_SUBAGENT_TOOL_NAME, SUBAGENT_TOOL_NAME];

export function isSubagentToolName(name: string): boolean {
  return name === SUBAGENT_TOOL_NAME || name === LEGACY_SUBAGENT_TOOL_NAME;
}
