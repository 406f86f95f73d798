/**
 * A Task call that does not say `run_in_background` (issues 39 and 38): claude 2.1.334 runs the subagent in the
 * background (the call answers at once, the turn ends, the notification is a turn of its own), and turnloop's SDK
 * session does too (Extension `backgroundAgentTool`; the original loop runs it to its end).
 */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const fidelityTaskDefaultBackground: SdkProgram = {
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
