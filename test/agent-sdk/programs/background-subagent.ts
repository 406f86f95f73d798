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

/**
 * An interrupt while the turn that launched a background subagent is still waiting for the model: the interrupt
 * stops the subagent too (task `killed`, notification `stopped`), and no notification turn follows.
 */
export const backgroundSubagentInterrupted: SdkProgram = {
  name: 'an interrupt after a background Task call',
  // Both the main loop's next request and the subagent's are slow, so the interrupt finds both waiting.
  script: () => ({
    model: [
      toolCall('toolu_task_bg', 'Task', { description: 'Count files', prompt: 'Say how many files there are.', subagent_type: 'general-purpose', run_in_background: true }),
      { ...text('Done.'), delayMs: 1500 },
      { ...text('Done.'), delayMs: 1500 },
      text('Done.'),
    ],
  }),
  async run({ options, observed }, seen) {
    let endInput: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => (endInput = resolve));
    async function* input() {
      yield { type: 'user' as const, message: { role: 'user' as const, content: 'Ask a background subagent to count files.' }, parent_tool_use_id: null, session_id: '' };
      await ended;
    }
    const messages = query({ prompt: input(), options });
    for await (const message of messages) {
      seen.push(message);
      if (message.type === 'user' && JSON.stringify(message.message.content).includes('Async agent launched')) {
        setTimeout(() => void messages.interrupt().then(() => (observed.interruptAnswered = true)), 300);
      }
      if (message.type === 'result') endInput();
    }
  },
};
