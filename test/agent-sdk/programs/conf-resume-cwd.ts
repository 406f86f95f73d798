/**
 * A session whose shell moved (`cd sub`), resumed (docs/agent-sdk-conformance.md): the resumed session's shell starts
 * in the project again, and claude 2.1.334 opens the next prompt with an `# Environment update` reminder naming the
 * project and where the shell was. A session whose shell ended in the project gets none.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

function confResumeCwdProgram(name: string, command: string): SdkProgram {
  return {
    name,
    script: () => ({
      model: [
        toolCall('toolu_cd', 'Bash', { command, description: 'Move' }),
        text('Moved.'),
        toolCall('toolu_pwd', 'Bash', { command: 'pwd', description: 'Where' }),
        text('Here.'),
      ],
    }),
    async run({ options, api, dirs, observed }, seen) {
      mkdirSync(join(dirs.cwd, 'sub'));
      const first: SDKMessage[] = [];
      await drain(query({ prompt: 'Go to sub.', options: { ...options, allowedTools: ['Bash'] } }), first);
      seen.push(...first);
      const sessionId = first.find((m) => m.type === 'result')?.session_id;
      if (!sessionId) throw new Error('the first query gave no result with a session id');
      const requestsBefore = api.log.length;
      const second: SDKMessage[] = [];
      await drain(query({ prompt: 'Where are you?', options: { ...options, allowedTools: ['Bash'], resume: sessionId } }), second);
      seen.push(...second);
      const resumed = api.log[requestsBefore]?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined;
      const prompt = resumed?.messages?.at(-1);
      const blocks = Array.isArray(prompt?.content) ? (prompt.content as Array<{ type: string; text?: string }>) : [{ type: 'text', text: String(prompt?.content) }];
      observed.promptTexts = blocks.filter((b) => b.type === 'text').map((b) => (b.text ?? '').split(dirs.cwd).join('<cwd>')).filter((t) => !t.includes('<total_tokens>') && !t.startsWith('<system-reminder>\nAs you answer'));
      const results = second.flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content : [])) as Array<{ type: string; content?: unknown }>;
      observed.pwd = results.filter((b) => b.type === 'tool_result').map((b) => String(b.content).split(dirs.cwd).join('<cwd>'));
    },
  };
}

export const confResumeMoved = confResumeCwdProgram('resume after the shell moved: the next prompt says where it was', 'cd sub');
export const confResumeStayed = confResumeCwdProgram('resume after the shell stayed: no reminder', 'cd .');
