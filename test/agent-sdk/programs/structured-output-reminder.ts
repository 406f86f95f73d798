/** `outputFormat` and a model that first answers in plain text: it is sent back to call StructuredOutput. */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };

export const structuredOutputReminder: SdkProgram = {
  name: 'structured output after a plain answer',
  script: () => ({ model: [text('Plain answer.'), toolCall('toolu_so_1', 'StructuredOutput', { n: 1 }), text('Never asked for.')] }),
  async run({ options, observed }, seen) {
    await drain(query({ prompt: 'A number, as JSON.', options: { ...options, outputFormat: { type: 'json_schema', schema } } }), seen);
    const result = seen.findLast((m) => m.type === 'result') as { structured_output?: unknown } | undefined;
    observed.structuredOutput = result?.structured_output;
  },
};
