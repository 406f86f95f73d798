/**
 * A research assistant with two subagents defined in code (the `agents` option, as the subagents guide shows
 * them), the main agent limited to delegating and reading (`allowedTools`). The program reports which agents the
 * session knows, each delegation, and which messages came from inside a subagent.
 */
import { join } from 'node:path';
import { query, type AgentDefinition } from '@anthropic-ai/claude-agent-sdk';
import { text, toolCall } from './script-parts.ts';
import type { PublicProgram } from './public-runner.ts';

const agents: Record<string, AgentDefinition> = {
  'fact-checker': {
    description: 'Checks claims against the files in the project. Use for any claim that needs a source.',
    prompt: 'You check facts. Quote the file that supports or refutes the claim.',
    tools: ['Read', 'Grep'],
    model: 'inherit',
  },
  writer: {
    description: 'Writes short summaries.',
    prompt: 'You write plain, short summaries.',
    tools: ['Write'],
  },
};

export const publicResearchAgents: PublicProgram = {
  name: 'public: the agents option with allowedTools, one delegation',
  project: () => ({ 'facts.md': 'The Eiffel Tower is 330 m tall.\n' }),
  script: ({ cwd }) => ({
    model: [
      toolCall('toolu_delegate', 'Task', {
        description: 'Check the height claim',
        prompt: 'Is the Eiffel Tower 330 m tall? Check facts.md.',
        subagent_type: 'fact-checker',
        run_in_background: false,
      }),
      toolCall('toolu_sub_read', 'Read', { file_path: join(cwd, 'facts.md') }), // the fact-checker's call
      text('Confirmed by facts.md: 330 m.'), // the fact-checker's report
      text('The claim holds: the Eiffel Tower is 330 m tall.'),
    ],
  }),
  async main({ engine, print }) {
    let answer: string | undefined;
    for await (const message of query({
      prompt: 'Is the Eiffel Tower 330 m tall? Use the fact-checker.',
      options: { ...engine, agents, allowedTools: ['Task', 'Agent', 'Read', 'Grep'] },
    })) {
      if (message.type === 'system' && message.subtype === 'init') {
        print(`agents: ${(message.agents ?? []).filter((a) => a in agents).sort().join(', ')}`);
      }
      if (message.type === 'assistant' && message.parent_tool_use_id === null) {
        for (const block of message.message.content) {
          if (block.type === 'tool_use' && (block.name === 'Task' || block.name === 'Agent')) {
            print(`delegating to ${(block.input as { subagent_type?: string }).subagent_type}`);
          }
        }
      }
      if (message.type === 'user' && message.parent_tool_use_id === null && Array.isArray(message.message.content)) {
        for (const block of message.message.content) {
          if (block.type === 'tool_result' && block.tool_use_id === 'toolu_delegate') {
            print(`report ${block.is_error ? 'failed' : 'received'}: ${JSON.stringify(block.content).includes('330 m') ? 'mentions 330 m' : 'no height'}`);
          }
        }
      }
      if (message.type === 'result') {
        answer = message.subtype === 'success' ? message.result : undefined;
        print(`${message.subtype} in ${message.num_turns} turns`);
      }
    }
    return answer;
  },
};
