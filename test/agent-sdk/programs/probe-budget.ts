import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';
export const budget: SdkProgram = {
  name: 'budget',
  script: ({ cwd }) => ({ model: [toolCall('toolu_read_1', 'Read', { file_path: join(cwd, 'notes.txt') }), text('Never sent.')] }),
  async run({ options, dirs }, seen) {
    writeFileSync(join(dirs.cwd, 'notes.txt'), 'one line of notes\n');
    await drain(query({ prompt: 'Read notes.txt.', options: { ...options, maxBudgetUsd: 0.0001, allowedTools: ['Read'] } }), seen);
  },
};
