/** `turnloop/agents`: subagents, tools that run a child loop (docs/subagents.md). */
export { defineAgentTool, agentToolResult, type AgentToolSpec } from './define-agent-tool.ts';
export type { ChildRunRequest, ChildRunResult, ChildLink, TreeBudget } from '../tools/child-runs.ts';
export { createBackgroundAgents, backgroundLaunchText, taskNotificationText, type BackgroundAgents, type BackgroundLauncher, type BackgroundLaunch, type BackgroundOutcome } from './background-agents.ts';
