/**
 * A subagent's id in an SDK session, in claude 2.1.334's form: `a` and 16 hex digits. It is the task's id
 * (`task_id` of the task messages, `<task-id>` of a notification), the launch text's `agentId`, the `agent_id` of
 * the SubagentStart/SubagentStop hook inputs and the `agentId` of the Agent tool's `tool_response`. The session
 * takes its id source as a dependency (a test gives a fixed one); the call's tool_use id stays the link to the call.
 */
import { randomBytes } from 'node:crypto';

export type AgentIdSource = () => string;

export const randomAgentIds: AgentIdSource = () => `a${randomBytes(8).toString('hex')}`;

/** Whether `id` has claude's form. */
export function isAgentId(id: string): boolean {
  return /^a[0-9a-f]{16}$/.test(id);
}
