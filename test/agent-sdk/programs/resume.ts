/** A finished session resumed with a new prompt: same session id, and the model sees the first exchange. */
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text } from './script-parts.ts';

export const resumeFinishedSession: SdkProgram = {
  name: 'resume of a finished session',
  script: () => ({ model: [text('Noted: the code word is heron.'), text('The code word was heron.')] }),
  async run({ options, api, observed }, seen) {
    const first: SDKMessage[] = [];
    await drain(query({ prompt: 'Remember the code word heron.', options }), first);
    seen.push(...first);
    const sessionId = first.find((m) => m.type === 'result')?.session_id;
    if (!sessionId) throw new Error('the first query gave no result with a session id');
    const second: SDKMessage[] = [];
    await drain(query({ prompt: 'What was the code word?', options: { ...options, resume: sessionId } }), second);
    seen.push(...second);
    observed.sameSessionId = second.every((m) => !('session_id' in m) || m.session_id === sessionId);
    // What the second request carried: the earlier exchange, then the new prompt (roles only).
    const last = api.log.at(-1)?.body as { messages?: Array<{ role: string }> } | undefined;
    observed.secondRequestRoles = (last?.messages ?? []).map((m) => m.role).filter((role, i, all) => role !== all[i - 1]);
  },
};
