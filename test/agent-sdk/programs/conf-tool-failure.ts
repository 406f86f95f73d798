/**
 * PostToolUseFailure's input (issue #38): a program that registers a PostToolUseFailure callback and no PostToolUse
 * one, and a settings command hook on the same event, for a Bash call that exits 1 and a Read of a missing file.
 * Observed: each input's fields and the type of its `duration_ms`, from the callback and from the command's stdin.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { query, type HookCallback } from '@anthropic-ai/claude-agent-sdk';
import type { SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

type Json = Record<string, unknown>;
const fieldsOf = (input: Json) => ({ tool: input.tool_name, keys: Object.keys(input).join(','), durationType: typeof input.duration_ms, isInterrupt: input.is_interrupt });

export const confToolFailure: SdkProgram = {
  name: 'conf: PostToolUseFailure inputs (callback and command hook)',
  script: ({ cwd }) => ({
    model: [
      toolCall('toolu_false', 'Bash', { command: 'sleep 0.05; false', description: 'Fail' }),
      toolCall('toolu_missing', 'Read', { file_path: join(cwd, 'missing.txt') }),
      text('Both failed.'),
    ],
  }),
  async run({ options, dirs, observed }, seen) {
    writeFileSync(join(dirs.cwd, 'failed.sh'), '#!/bin/sh\ncat >> failed.stdin\n', { mode: 0o755 });
    mkdirSync(join(dirs.cwd, '.claude'), { recursive: true });
    writeFileSync(join(dirs.cwd, '.claude', 'settings.json'), JSON.stringify({ hooks: { PostToolUseFailure: [{ hooks: [{ type: 'command', command: './failed.sh' }] }] } }));
    const inputs: Json[] = [];
    const failed: HookCallback = async (input) => {
      inputs.push(input as unknown as Json);
      return {};
    };
    for await (const message of query({
      prompt: 'Try two things.',
      options: { ...options, settingSources: ['project'], hooks: { PostToolUseFailure: [{ hooks: [failed] }] }, canUseTool: async (_tool, input) => ({ behavior: 'allow', updatedInput: input }) },
    })) seen.push(message);
    observed.callback = inputs.map(fieldsOf);
    const file = join(dirs.cwd, 'failed.stdin');
    observed.command = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => fieldsOf(JSON.parse(l) as Json)) : [];
  },
};
