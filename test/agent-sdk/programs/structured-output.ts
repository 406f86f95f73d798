/** `outputFormat` with a JSON schema: the model answers through the StructuredOutput tool, once wrong, then right. */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, population: { type: 'number' } },
  required: ['city', 'population'],
  additionalProperties: false,
};

export const structuredOutput: SdkProgram = {
  name: 'structured output (outputFormat json_schema)',
  script: () => ({
    model: [
      toolCall('toolu_so_1', 'StructuredOutput', { city: 'Paris' }),
      toolCall('toolu_so_2', 'StructuredOutput', { city: 'Paris', population: 2102650 }),
      text('Never asked for.'),
    ],
  }),
  async run({ options, observed }, seen) {
    await drain(query({ prompt: 'The largest city of France, as JSON.', options: { ...options, outputFormat: { type: 'json_schema', schema } } }), seen);
    const result = seen.findLast((m) => m.type === 'result') as { structured_output?: unknown; result?: string } | undefined;
    observed.structuredOutput = result?.structured_output;
    observed.result = result?.result;
  },
};
