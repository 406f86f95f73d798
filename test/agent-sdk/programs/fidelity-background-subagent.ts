/**
 * A Task call that does not say `run_in_background` (issue 39): the original runs the subagent to its end and
 * answers the call with the subagent's report.
 */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const fidelityTaskDefaultForeground: SdkProgram = {
  name: 'a Task call without run_in_background',
  // Every answer is the same text, so that whichever loop asks first (the main one or the subagent) gets one.
  script: () => ({
    model: [
      toolCall('toolu_task_1', 'Task', { description: 'Count files', prompt: 'Say how many files there are.', subagent_type: 'general-purpose' }),
      text('Done.'),
      text('Done.'),
      text('Done.'),
      text('Done.'),
    ],
  }),
  async run({ options }, seen) {
    await drain(query({ prompt: 'Ask a subagent to count files.', options }), seen);
  },
};
