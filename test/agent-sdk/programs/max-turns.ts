/** `maxTurns: 1` and a reply that calls a tool: the run stops after the tool, before a second model turn. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const maxTurnsWithToolCall: SdkProgram = {
  name: 'maxTurns: 1 with a tool call',
  // The text answer is never asked for: the run ends at the turn limit.
  script: ({ cwd }) => ({ model: [toolCall('toolu_read_1', 'Read', { file_path: join(cwd, 'notes.txt') }), text('Never sent.')] }),
  async run({ options, dirs }, seen) {
    writeFileSync(join(dirs.cwd, 'notes.txt'), 'one line of notes\n');
    await drain(query({ prompt: 'Read notes.txt.', options: { ...options, maxTurns: 1 } }), seen);
  },
};
