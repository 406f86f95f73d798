/** A request that fails twice (529, then 500) before it is answered: claude reports each retry (`system/api_retry`). */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text } from './script-parts.ts';

export const apiRetries: SdkProgram = {
  name: 'a request retried after a 529 and a 500',
  script: () => ({ model: [{ status: 529 }, { status: 500 }, text('Answered at the third try.')] }),
  async run({ options, observed }, seen) {
    await drain(query({ prompt: 'Hello?', options }), seen);
    // The delays differ (claude waits about 0.5 s and 1 s; turnloop offline waits milliseconds): not compared.
    observed.retries = seen.flatMap((m) => (m.type === 'system' && m.subtype === 'api_retry' ? [{ attempt: m.attempt, max_retries: m.max_retries, error_status: m.error_status, error: m.error }] : []));
  },
};
