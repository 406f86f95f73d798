/**
 * A chat session driven from a UI, using the Query's control methods between messages: it asks what the session
 * offers (`mcpServerStatus`, `supportedCommands`), switches to `acceptEdits` with `setPermissionMode` after the
 * first answer so the next edit is not asked for, and ends by closing its input.
 */
import { join } from 'node:path';
import { query, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { text, toolCall } from './script-parts.ts';
import type { PublicProgram } from './public-runner.ts';

export const publicSessionControls: PublicProgram = {
  name: 'public: setPermissionMode and status calls between streamed messages',
  script: ({ cwd }) => ({
    model: [
      text('Ready when you are.'),
      toolCall('toolu_write', 'Write', { file_path: join(cwd, 'plan.md'), content: '# Plan\n1. ship\n' }),
      text('Wrote plan.md.'),
    ],
  }),
  async main({ engine, print }) {
    const messages: SDKUserMessage[] = [];
    let wake: (() => void) | undefined;
    let done = false;
    const say = (line: string) => {
      messages.push({ type: 'user', message: { role: 'user', content: line }, parent_tool_use_id: null });
      wake?.();
    };
    async function* input(): AsyncGenerator<SDKUserMessage> {
      while (!done) {
        const next = messages.shift();
        if (next) yield next;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    }
    let asked = 0;
    const session = query({
      prompt: input(),
      options: {
        ...engine,
        canUseTool: async (toolName, toolInput) => {
          asked++;
          return { behavior: 'deny', message: `${toolName} needs review` };
        },
      },
    });
    say('Hello, get ready to plan.');
    let results = 0;
    for await (const message of session) {
      if (message.type !== 'result') continue;
      results++;
      print(`result ${results}: ${message.subtype}`);
      if (results === 1) {
        const servers = await session.mcpServerStatus();
        print(`mcp servers: ${servers.length}`);
        const commands = await session.supportedCommands();
        print(`commands listed: ${Array.isArray(commands)}`);
        await session.setPermissionMode('acceptEdits');
        say('Write plan.md.');
      } else {
        done = true;
        wake?.();
      }
    }
    print(`canUseTool asked ${asked} time(s)`);
    return results;
  },
};
