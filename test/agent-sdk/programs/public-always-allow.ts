/**
 * A permission prompt with an "always allow" answer, as chat front ends offer it: `canUseTool` answers `allow`
 * with `updatedPermissions`: the suggestions Claude Code made for the call, or when it made none a session rule
 * of the program's own (`Bash(mkdir:*)`), so the next call of that kind is not asked for again.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { query, type CanUseTool, type PermissionUpdate } from '@anthropic-ai/claude-agent-sdk';
import { text, toolCall } from './script-parts.ts';
import type { PublicProgram } from './public-runner.ts';

export const publicAlwaysAllow: PublicProgram = {
  name: 'public: canUseTool answering "always allow" with updatedPermissions',
  script: () => ({
    model: [
      toolCall('toolu_1', 'Bash', { command: 'mkdir -p build/debug', description: 'Make the debug folder' }),
      toolCall('toolu_2', 'Bash', { command: 'mkdir -p build/release', description: 'Make the release folder' }),
      text('Both folders exist.'),
    ],
  }),
  async main({ engine, cwd, print }) {
    let prompts = 0;
    const ask: CanUseTool = async (toolName, input, { suggestions }) => {
      prompts++;
      print(`prompt #${prompts}: ${toolName} (${suggestions?.length ? 'with suggestions' : 'no suggestions'})`);
      const always: PermissionUpdate[] = suggestions?.length
        ? suggestions
        : [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'mkdir:*' }], behavior: 'allow', destination: 'session' }];
      return { behavior: 'allow', updatedInput: input, updatedPermissions: always };
    };
    for await (const message of query({ prompt: 'Make build/debug and build/release.', options: { ...engine, canUseTool: ask } })) {
      if (message.type === 'result') print(`${message.subtype}, ${message.num_turns} turns`);
    }
    print(`asked ${prompts} time(s)`);
    print(`folders: ${['debug', 'release'].map((name) => `${name}=${existsSync(join(cwd, 'build', name))}`).join(' ')}`);
    return prompts;
  },
};
