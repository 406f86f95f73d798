/**
 * A Task call with `run_in_background: true` (issue 38 item 6): the call returns at once saying the agent was
 * launched, and the subagent's report reaches the main loop later as a `<task-notification>` user turn.
 */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const backgroundSubagent: SdkProgram = {
  name: 'a Task call with run_in_background',
  // Every answer is the same text, so that whichever loop asks first (the main one or the subagent) gets one.
  script: () => ({
    model: [
      toolCall('toolu_task_bg', 'Task', { description: 'Count files', prompt: 'Say how many files there are.', subagent_type: 'general-purpose', run_in_background: true }),
      text('Done.'),
      text('Done.'),
      text('Done.'),
      text('Done.'),
    ],
  }),
  async run({ options }, seen) {
    await drain(query({ prompt: 'Ask a background subagent to count files.', options }), seen);
  },
};
