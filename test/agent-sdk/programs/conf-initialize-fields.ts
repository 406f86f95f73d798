/**
 * `initialize` fields a program may set that change what it sees (docs/agent-sdk-conformance.md): `title`, which
 * claude 2.1.334 answers with a `system/session_title_changed` message before the first `init`; and
 * `promptSuggestions`, after which claude 2.1.334 sent no suggestion and no extra request in this program.
 */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text } from './script-parts.ts';

export const confSessionTitle: SdkProgram = {
  name: 'title and promptSuggestions: what the program sees',
  script: () => ({ model: [text('Hello.')] }),
  async run({ options, api, observed }, seen) {
    await drain(query({ prompt: 'Hi.', options: { ...options, promptSuggestions: true, title: 'My chat' } }), seen);
    observed.requests = api.log.length;
    observed.types = seen.map((m) => `${m.type}${'subtype' in m && m.subtype ? `/${m.subtype}` : ''}`);
    // The SDK's types do not list this subtype (claude 2.1.334 writes it all the same).
    observed.titles = seen.filter((m) => m.type === 'system' && (m.subtype as string) === 'session_title_changed').map((m) => {
      const { title, session_id: sessionId } = m as { title?: string; session_id?: string };
      return { title, sameSession: sessionId === seen.find((r) => r.type === 'result')?.session_id };
    });
  },
};
