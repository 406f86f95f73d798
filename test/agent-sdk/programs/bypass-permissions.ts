/**
 * `permissionMode: 'bypassPermissions'`: every tool call runs without asking. The real claude refuses this mode
 * when run as root (the suite runs as root), so this program is compared with each engine's own expectation,
 * not side by side: turnloop runs it (Extension `sdkBypassAsRoot`), claude stops before any request.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const bypassPermissions: SdkProgram = {
  name: 'bypassPermissions (as root)',
  script: () => ({
    model: [toolCall('toolu_bash_1', 'Bash', { command: 'touch bypassed.txt', description: 'Create a file' }), text('Done without asking.')],
  }),
  async run({ options, dirs, observed }, seen) {
    try {
      await drain(
        query({
          prompt: 'Create bypassed.txt.',
          options: {
            ...options,
            permissionMode: 'bypassPermissions',
            allowDangerouslySkipPermissions: true,
          },
        }),
        seen,
      );
    } finally {
      observed.fileCreated = existsSync(join(dirs.cwd, 'bypassed.txt'));
    }
  },
};
