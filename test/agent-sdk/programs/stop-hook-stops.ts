/** A Stop hook answers `continue: false`: the turn ends as the hook says, reported as a success. */
import { query, type HookCallback } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text } from './script-parts.ts';

export const stopHookStops: SdkProgram = {
  name: 'a Stop hook that stops',
  script: () => ({ model: [text('Done.')] }),
  async run({ options, observed }, seen) {
    const calls: string[] = [];
    observed.calls = calls;
    const stop: HookCallback = async (input) => {
      calls.push(input.hook_event_name);
      return { continue: false, stopReason: 'The policy ends here.' };
    };
    await drain(query({ prompt: 'Say done.', options: { ...options, hooks: { Stop: [{ hooks: [stop] }] } } }), seen);
  },
};
