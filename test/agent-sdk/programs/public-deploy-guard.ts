/**
 * A release helper with two guard rails, as people write them: a PreToolUse hook on Bash that stops the agent
 * before anything that deploys (`continue: false` with a reason), and a `canUseTool` that keeps every file the
 * agent writes inside `drafts/` by rewriting the path (`updatedInput`). A PostToolUse hook on `Write|Edit` keeps
 * an audit trail.
 */
import { basename, join } from 'node:path';
import { query, type HookCallback, type CanUseTool } from '@anthropic-ai/claude-agent-sdk';
import { text, toolCall } from './script-parts.ts';
import type { PublicProgram } from './public-runner.ts';

export const publicDeployGuard: PublicProgram = {
  name: 'public: a hook that stops a deploy, canUseTool rewriting a path',
  script: ({ cwd }) => ({
    model: [
      toolCall('toolu_write', 'Write', { file_path: join(cwd, 'CHANGELOG.md'), content: '## 1.2.0\n- faster start\n' }),
      toolCall('toolu_deploy', 'Bash', { command: 'echo shipped > deployed.txt', description: 'Deploy the release' }),
      text('Released.'),
    ],
  }),
  async main({ engine, cwd, print }) {
    const audit: string[] = [];
    const guardDeploys: HookCallback = async (input) => {
      if (input.hook_event_name !== 'PreToolUse') return {};
      const command = String((input.tool_input as { command?: string }).command ?? '');
      print(`guard saw: ${command}`);
      if (command.includes('shipped')) return { continue: false, stopReason: 'Deploys need a human.' };
      return {};
    };
    const recordEdits: HookCallback = async (input) => {
      if (input.hook_event_name === 'PostToolUse') audit.push(`${input.tool_name} ${basename(String((input.tool_input as { file_path?: string }).file_path))}`);
      return {};
    };
    const keepInDrafts: CanUseTool = async (toolName, input) => {
      print(`asked for ${toolName}`);
      if (toolName === 'Write' && typeof input.file_path === 'string') {
        return { behavior: 'allow', updatedInput: { ...input, file_path: join(cwd, 'drafts', basename(input.file_path)) } };
      }
      return { behavior: 'allow', updatedInput: input };
    };

    let outcome = 'no result';
    for await (const message of query({
      prompt: 'Write the changelog for 1.2.0 and deploy it.',
      options: {
        ...engine,
        canUseTool: keepInDrafts,
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [guardDeploys] }],
          PostToolUse: [{ matcher: 'Write|Edit', hooks: [recordEdits] }],
        },
      },
    })) {
      if (message.type === 'result') {
        outcome = `${message.subtype} / ${message.terminal_reason ?? '-'} / is_error=${message.is_error}`;
        if (message.subtype === 'success') print(`final text: "${message.result}"`);
        print(`denied: ${message.permission_denials.map((d) => d.tool_name).join(',') || 'none'}`);
      }
    }
    print(`audit: ${audit.join('; ')}`);
    return outcome;
  },
};
