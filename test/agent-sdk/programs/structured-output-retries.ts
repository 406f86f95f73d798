/** `outputFormat` and a model that never matches the schema: five tries, then the turn ends with its own subtype. */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };

export const structuredOutputRetries: SdkProgram = {
  name: 'structured output that never matches',
  script: () => ({ model: [...Array.from({ length: 6 }, (_, i) => toolCall(`toolu_so_${i}`, 'StructuredOutput', { x: i })), text('Never asked for.')] }),
  async run({ options }, seen) {
    await drain(query({ prompt: 'A number, as JSON.', options: { ...options, outputFormat: { type: 'json_schema', schema } } }), seen);
  },
};
