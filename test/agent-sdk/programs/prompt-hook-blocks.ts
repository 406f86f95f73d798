/** A UserPromptSubmit hook blocks the prompt: no model call; a warning and a successful result say why. */
import { query, type HookCallback } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text } from './script-parts.ts';

export const promptHookBlocks: SdkProgram = {
  name: 'a UserPromptSubmit hook that blocks',
  script: () => ({ model: [text('Never asked for.')] }),
  async run({ options, observed }, seen) {
    const block: HookCallback = async () => ({ decision: 'block', reason: 'Not this prompt.' });
    await drain(query({ prompt: 'Do the forbidden thing.', options: { ...options, hooks: { UserPromptSubmit: [{ hooks: [block] }] } } }), seen);
    const result = seen.findLast((m) => m.type === 'result') as { result?: string } | undefined;
    observed.result = result?.result;
  },
};
