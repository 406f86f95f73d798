/** A Task call runs a subagent; its messages carry the Task call's id as `parent_tool_use_id`. */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const subagentTask: SdkProgram = {
  name: 'a subagent (Task)',
  script: () => ({
    model: [
      toolCall('toolu_task_1', 'Task', { description: 'Count files', prompt: 'Say how many files there are.', subagent_type: 'general-purpose', run_in_background: false }),
      text('There are no files.'), // the subagent's answer
      text('The subagent found no files.'), // the main agent's answer
    ],
  }),
  async run({ options }, seen) {
    await drain(query({ prompt: 'Ask a subagent to count files.', options }), seen);
  },
};
