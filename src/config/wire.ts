/**
 * Names on the wire that both the model adapter (which sends them) and the loopback fake API (which reads them)
 * must agree on.
 */

/** Tells the fake API which scripted queue answers a request: the main loop's or the forked compactor's. */
export const QUERY_SOURCE_HEADER = 'x-turnloop-query-source';

/**
 * Names the child run (subagent) a request belongs to: the path of tool_use ids from the root run to the call that
 * started it. Absent for the root run. The fake API answers a child run from its own queue when one is scripted,
 * so concurrent subagents are answered deterministically whatever order their requests arrive in.
 */
export const AGENT_RUN_HEADER = 'x-turnloop-agent-run';

/** The value of `AGENT_RUN_HEADER` for a child run: its tool_use ids, each URI-encoded (a header is ASCII), joined by `/`. */
export function agentRunKey(toolUseIds: readonly string[]): string {
  return toolUseIds.map(encodeURIComponent).join('/');
}
