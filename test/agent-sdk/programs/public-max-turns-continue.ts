/**
 * A batch job that gives the agent few turns, and when the SDK reports that the limit was hit (it throws after an
 * error result), resumes the same session with more turns to finish: the try/catch around `for await` that
 * programs write once they meet `error_max_turns`.
 */
import { join } from 'node:path';
import { query, type SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import { text, toolCall } from './script-parts.ts';
import type { PublicProgram } from './public-runner.ts';

export const publicMaxTurnsContinue: PublicProgram = {
  name: 'public: maxTurns hit, caught, then resumed with more turns',
  script: ({ cwd }) => ({
    model: [
      toolCall('toolu_a', 'Write', { file_path: join(cwd, 'a.txt'), content: 'A\n' }),
      toolCall('toolu_b', 'Write', { file_path: join(cwd, 'b.txt'), content: 'B\n' }),
      text('Both files written.'),
    ],
  }),
  async main({ engine, print }) {
    const options = { ...engine, allowedTools: ['Write'] };
    let last: SDKResultMessage | undefined;
    let sessionId = '';
    try {
      for await (const message of query({ prompt: 'Write a.txt then b.txt.', options: { ...options, maxTurns: 1 } })) {
        if (message.session_id) sessionId = message.session_id;
        if (message.type === 'result') last = message;
      }
    } catch (error) {
      print(`first run threw: ${error instanceof Error ? error.message : String(error)}`);
    }
    print(`first run: ${last?.subtype} (${last?.is_error ? 'error' : 'ok'}), ${last?.num_turns} turns`);
    if (last?.subtype === 'error_max_turns') {
      for await (const message of query({ prompt: 'Continue where you stopped.', options: { ...options, resume: sessionId, maxTurns: 5 } })) {
        if (message.type === 'result') {
          print(`second run: ${message.subtype}, ${message.num_turns} turns: ${message.subtype === 'success' ? message.result : ''}`);
          print(`same session: ${message.session_id === sessionId}`);
        }
      }
    }
    return last?.subtype;
  },
};
