/** `interrupt()` while a tool runs (a Bash sleep): the call is cancelled and the turn ends `aborted_tools`. */
import { query } from '@anthropic-ai/claude-agent-sdk';
import type { SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const interruptDuringTool: SdkProgram = {
  name: 'an interrupt during a tool',
  script: () => ({ model: [toolCall('toolu_bash_1', 'Bash', { command: 'sleep 20', description: 'Wait' }), text('Never sent.')] }),
  async run({ options, observed }, seen) {
    const run = query({ prompt: 'Wait twenty seconds.', options: { ...options, allowedTools: ['Bash'] } });
    let interrupt: Promise<void> | undefined;
    // The SDK throws after the error result; the messages seen so far are kept by the harness.
    for await (const message of run) {
      seen.push(message);
      if (!interrupt && message.type === 'assistant' && message.message.content.some((b) => b.type === 'tool_use')) {
        interrupt = new Promise((resolve) => setTimeout(resolve, 1000)).then(() => run.interrupt()).then(() => {
          observed.interruptAnswered = true;
        });
      }
    }
    await interrupt;
  },
};
