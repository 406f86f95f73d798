/**
 * A call that needs approval, with nobody to ask (no `canUseTool`, no rule): claude announces the denial
 * (`system/permission_denied`) before the error tool_result, with the tool_result's text.
 */
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const deniedWithoutAsking: SdkProgram = {
  name: 'a call denied without asking',
  script: () => ({ model: [toolCall('toolu_bash_1', 'Bash', { command: 'touch denied.txt', description: 'Create a file' }), text('It was denied.')] }),
  async run({ options, observed }, seen) {
    await drain(query({ prompt: 'Create denied.txt.', options }), seen);
    const denied = seen.find((m) => m.type === 'system' && m.subtype === 'permission_denied');
    const toolResult = seen.flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content : [])).find((b) => b.type === 'tool_result');
    observed.denied = denied && denied.type === 'system' && denied.subtype === 'permission_denied' ? { tool_name: denied.tool_name, tool_use_id: denied.tool_use_id, sameText: denied.message === toolResult?.content } : null;
  },
};
