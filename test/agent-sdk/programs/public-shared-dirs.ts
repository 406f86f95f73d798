/**
 * A migration script that works in the project and in a sibling folder it is given (`additionalDirectories`),
 * with edits accepted without asking (`permissionMode: 'acceptEdits'`), web tools taken away
 * (`disallowedTools`), a turn limit and a custom system prompt string.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { text, toolCall } from './script-parts.ts';
import type { PublicProgram } from './public-runner.ts';

const shared = new Map<string, string>(); // the sibling folder of each run, by its working directory

function sharedDir(cwd: string): string {
  let dir = shared.get(cwd);
  if (!dir) {
    dir = mkdtempSync(join(tmpdir(), 'sdk-shared-'));
    shared.set(cwd, dir);
  }
  return dir;
}

export const publicSharedDirs: PublicProgram = {
  name: 'public: additionalDirectories with acceptEdits and disallowedTools',
  project: ({ cwd }) => ({
    'app.config': 'port=8080\n',
    [join(sharedDir(cwd), 'defaults.config')]: 'port=80\nhost=localhost\n',
  }),
  script: ({ cwd }) => ({
    model: [
      toolCall('toolu_read', 'Read', { file_path: join(sharedDir(cwd), 'defaults.config') }),
      toolCall('toolu_edit', 'Edit', { file_path: join(cwd, 'app.config'), old_string: 'port=8080\n', new_string: 'port=8080\nhost=localhost\n' }),
      toolCall('toolu_write', 'Write', { file_path: join(sharedDir(cwd), 'MIGRATED'), content: 'app.config\n' }),
      text('Migrated app.config.'),
    ],
  }),
  async main({ engine, cwd, print }) {
    const dir = sharedDir(cwd);
    for await (const message of query({
      prompt: `Copy the missing keys of ${dir}/defaults.config into app.config and mark it migrated there.`,
      options: {
        ...engine,
        systemPrompt: 'You migrate configuration files. Be terse.',
        additionalDirectories: [dir],
        permissionMode: 'acceptEdits',
        disallowedTools: ['WebFetch', 'WebSearch'],
        maxTurns: 8,
      },
    })) {
      if (message.type === 'system' && message.subtype === 'init') {
        print(`web tools offered: ${message.tools.some((t) => t.startsWith('Web'))}; mode ${message.permissionMode}`);
      }
      if (message.type === 'user' && Array.isArray(message.message.content)) {
        for (const block of message.message.content) if (block.type === 'tool_result') print(`${block.tool_use_id}: ${block.is_error ? 'error' : 'ok'}`);
      }
      if (message.type === 'result') print(`${message.subtype} after ${message.num_turns} turns; denied ${message.permission_denials.map((d) => d.tool_name).join(',') || 'nothing'}`);
    }
    const { existsSync, readFileSync } = await import('node:fs');
    return { marker: existsSync(join(dir, 'MIGRATED')) ? readFileSync(join(dir, 'MIGRATED'), 'utf8') : null };
  },
};
