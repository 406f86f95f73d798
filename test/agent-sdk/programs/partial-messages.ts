/** `includePartialMessages`: the stream events of the answer arrive before the whole assistant message. */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text } from './script-parts.ts';

export const partialMessages: SdkProgram = {
  name: 'partial messages',
  script: () => ({ model: [text('Streaming, one piece at a time.')] }),
  async run({ options, observed }, seen) {
    await drain(query({ prompt: 'Stream something.', options: { ...options, includePartialMessages: true } }), seen);
    // The raw event types in order, runs collapsed (chunking may differ; the event grammar may not).
    const events = seen.flatMap((m) => (m.type === 'stream_event' ? [m.event.type] : []));
    observed.streamEvents = events.filter((type, i) => type !== events[i - 1]);
  },
};
