/** The `agents` option: a program-defined agent, listed in `system/init` and run by a Task call that names it. */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const agentsOption: SdkProgram = {
  name: 'the agents option',
  script: () => ({
    model: [
      toolCall('toolu_task_1', 'Task', { description: 'Review', prompt: 'Review the working directory.', subagent_type: 'reviewer', run_in_background: false }),
      text('Nothing to review.'), // the reviewer's answer
      text('The reviewer found nothing.'),
    ],
  }),
  async run({ options, observed }, seen) {
    await drain(
      query({
        prompt: 'Ask the reviewer.',
        options: { ...options, agents: { reviewer: { description: 'Reviews code for mistakes.', prompt: 'You review code.', tools: ['Read', 'Grep'] } } },
      }),
      seen,
    );
    const init = seen.find((m) => m.type === 'system' && m.subtype === 'init') as { agents?: string[] } | undefined;
    observed.reviewerListed = init?.agents?.includes('reviewer');
    observed.generalPurposeListed = init?.agents?.includes('general-purpose');
  },
};
