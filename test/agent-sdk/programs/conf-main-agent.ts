/**
 * The SDK's `agent` option (the main thread as one of the program's agents), as claude 2.1.334 applies it
 * (docs/agent-sdk-conformance.md): what the first request carries (system prompt, tools, model) and what `init` says.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

function confMainAgentProgram(name: string, reviewer: Record<string, unknown>, agent = 'reviewer'): SdkProgram {
  return {
  name,
  script: () => ({ model: [toolCall('toolu_read', 'Read', { file_path: 'notes.txt' }), text('Reviewed.')] }),
  async run({ options, api, dirs, observed }, seen) {
    writeFileSync(join(dirs.cwd, 'notes.txt'), 'a note\n');
    await drain(
      query({
        prompt: 'Review notes.txt.',
        options: {
          ...options,
          agent,
          agents: { reviewer: { description: 'Reviews files.', prompt: 'You are REVIEWER-PROMPT.', ...reviewer } },
        },
      }),
      seen,
    );
    const body = api.log[0]?.body as { system?: unknown; tools?: Array<{ name: string }>; model?: string } | undefined;
    const system = JSON.stringify(body?.system ?? '');
    observed.systemHasAgentPrompt = system.includes('REVIEWER-PROMPT');
    observed.systemBlocks = Array.isArray(body?.system) ? (body.system as Array<{ text: string }>).map((b) => b.text.slice(0, 80)) : [];
    observed.tools = (body?.tools ?? []).map((t) => t.name).sort();
    observed.model = body?.model;
    const init = seen.find((m) => m.type === 'system' && m.subtype === 'init') as Record<string, unknown> | undefined;
    observed.init = init ? { agents: init.agents, tools: init.tools, model: init.model, agent: init.agent } : null;
  },
};
}

export const confMainAgent = confMainAgentProgram('agent: the main thread as the program\'s reviewer agent (tools Read, Grep)', { tools: ['Read', 'Grep'] });
export const confMainAgentModel = confMainAgentProgram('agent: the reviewer names its model and disallows Bash', { model: 'haiku', disallowedTools: ['Bash'] });
export const confMainAgentUnknown = confMainAgentProgram('agent: a name that is not among the program\'s agents', { tools: ['Read', 'Grep'] }, 'nobody');
