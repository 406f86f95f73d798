/**
 * A "cancel" button built on `abortController`: the program aborts as soon as it sees the agent start a slow
 * command, catches the SDK's `AbortError`, and reports what it had received until then.
 */
import { AbortError, query } from '@anthropic-ai/claude-agent-sdk';
import { text, toolCall } from './script-parts.ts';
import type { PublicProgram } from './public-runner.ts';

export const publicCancelAbort: PublicProgram = {
  name: 'public: cancel with an AbortController while a command runs',
  script: () => ({
    model: [
      toolCall('toolu_slow', 'Bash', { command: 'sleep 3 && touch finished.txt', description: 'A slow build' }),
      text('Built.'),
    ],
  }),
  async main({ engine, print, signal }) {
    const cancel = new AbortController();
    signal.addEventListener('abort', () => cancel.abort());
    const seen: string[] = [];
    try {
      for await (const message of query({
        prompt: 'Run the build.',
        options: { ...engine, abortController: cancel, allowedTools: ['Bash'] },
      })) {
        seen.push(message.type);
        if (message.type === 'assistant' && message.message.content.some((b) => b.type === 'tool_use')) {
          print('cancel pressed');
          setTimeout(() => cancel.abort(), 300); // the user's reaction time: the command has started
        }
        if (message.type === 'result') print(`result: ${message.subtype}`);
      }
      print('the query ended without an error');
    } catch (error) {
      if (error instanceof AbortError) print(`cancelled: ${error.name}`);
      else print(`failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    print(`saw a result: ${seen.includes('result')}`);
    // The command was killed: give a late `touch` the time to show up if it were still running.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    return seen.filter((type, i) => type !== seen[i - 1]);
  },
};
