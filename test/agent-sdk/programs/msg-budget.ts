/**
 * `maxBudgetUsd` below the cost of the first reply, a reply that calls a tool: claude keeps the whole reply, shows no
 * tool result and sends no further request; `error_max_budget_usd`, 1 turn. Whether the call ran is not compared:
 * claude (2.1.334) does not run it when the machine is idle, but under load it was once seen to have written the
 * file before the turn stopped (its result never shown); turnloop never runs it (test/unit/agent-sdk/headless-endings.test.ts).
 */
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const maxBudgetOnToolCall: SdkProgram = {
  name: 'maxBudgetUsd reached on a reply that calls a tool',
  // The text answer is never asked for: the budget is spent by the first reply.
  script: ({ cwd }) => ({ model: [toolCall('toolu_write_1', 'Write', { file_path: join(cwd, 'spent.txt'), content: 'over budget\n' }), text('Never sent.')] }),
  async run({ options }, seen) {
    await drain(query({ prompt: 'Write spent.txt.', options: { ...options, maxBudgetUsd: 0.0001, allowedTools: ['Write'] } }), seen);
  },
};
