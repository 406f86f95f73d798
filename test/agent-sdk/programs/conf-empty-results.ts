/**
 * Empty tool results as the model gets them (docs/agent-sdk-conformance.md): a Bash command with no output, a failed
 * Bash command with no output, and an SDK MCP tool that answers no text. claude 2.1.334 words an empty result
 * `(<tool> completed with no output)`, for every tool; turnloop words it `(<tool> finished with no output)` (its own
 * words, Extension `ownMessageTexts`), Bash's too. The `<system-reminder>` claude appends to a result (its token
 * count) is cut off.
 */
import { createSdkMcpServer, query, tool } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const confEmptyResults: SdkProgram = {
  name: 'empty tool results: Bash and an SDK MCP tool',
  script: () => ({
    model: [
      toolCall('toolu_true', 'Bash', { command: 'true', description: 'Nothing' }),
      toolCall('toolu_false', 'Bash', { command: 'false', description: 'Fail quietly' }),
      toolCall('toolu_cd', 'Bash', { command: 'mkdir -p sub && cd sub', description: 'Move quietly' }),
      toolCall('toolu_mcp', 'mcp__quiet__nothing', {}),
      toolCall('toolu_mcp_empty', 'mcp__quiet__none', {}),
      text('Done.'),
    ],
  }),
  async run({ options, api, dirs, observed }, seen) {
    const quiet = createSdkMcpServer({
      name: 'quiet',
      version: '1.0.0',
      tools: [
        tool('nothing', 'Answers an empty text', {}, async () => ({ content: [{ type: 'text', text: '' }] })),
        tool('none', 'Answers no content', {}, async () => ({ content: [] })),
      ],
    });
    await drain(query({ prompt: 'Run them.', options: { ...options, mcpServers: { quiet }, allowedTools: ['Bash', 'mcp__quiet__nothing', 'mcp__quiet__none'] } }), seen);
    const messages = ((api.log.at(-1)?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined)?.messages ?? []);
    observed.toModel = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((b: { type?: string }) => b.type === 'tool_result')
      .map((b: { tool_use_id: string; content: unknown; is_error?: boolean }) => ({ id: b.tool_use_id, isError: b.is_error === true, content: typeof b.content === 'string' ? b.content.split('\n\n<system-reminder>\n<total_tokens>')[0].split(dirs.cwd).join('<cwd>') : b.content }));
  },
};
