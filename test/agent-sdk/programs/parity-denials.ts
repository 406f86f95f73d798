/**
 * The texts of denied calls (issue #38): the denial situations the suite's programs reach, each as one call of one
 * query — a variable in a command a `Bash(printf:*)` rule would allow, a call nobody can be asked about (no
 * `canUseTool`), a Bash deny rule, a deny rule on Write, and a Write in `dontAsk` mode. Each call's error
 * tool_result and its `system/permission_denied` message are observed.
 */
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import type { SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

const CASES = [
  { id: 'toolu_var', name: 'Bash', input: { command: 'printf "$HOME"', description: 'Print home' }, options: { allowedTools: ['Bash(printf:*)'] } },
  { id: 'toolu_nobody', name: 'Bash', input: { command: 'touch made.txt', description: 'Make a file' }, options: {} },
  { id: 'toolu_bashrule', name: 'Bash', input: { command: 'touch ruled.txt', description: 'Make a file' }, options: { disallowedTools: ['Bash(touch:*)'] } },
  { id: 'toolu_writerule', name: 'Write', input: { file_path: 'w.txt', content: 'x\n' }, options: { disallowedTools: ['Write'] } },
  { id: 'toolu_dontask', name: 'Write', input: { file_path: 'd.txt', content: 'x\n' }, options: { permissionMode: 'dontAsk' as const } },
];

export const parityDenials: SdkProgram = {
  name: 'parity: the texts of denied calls',
  script: ({ cwd }) => ({
    model: CASES.flatMap((c) => [toolCall(c.id, c.name, 'file_path' in c.input ? { ...c.input, file_path: `${cwd}/${c.input.file_path}` } : c.input), text('Denied.')]),
  }),
  async run({ options, observed }, seen) {
    const texts: Record<string, unknown> = {};
    for (const c of CASES) {
      const mine: SDKMessage[] = [];
      for await (const message of query({ prompt: `Case ${c.id}.`, options: { ...options, ...c.options } })) {
        seen.push(message);
        mine.push(message);
      }
      const result = mine.flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content : [])).find((b) => b.type === 'tool_result');
      const denied = mine.find((m) => m.type === 'system' && m.subtype === 'permission_denied') as Record<string, unknown> | undefined;
      texts[c.id] = { result: result?.content, is_error: result?.is_error, denied: denied ? { ...denied, uuid: undefined, session_id: undefined } : null };
    }
    observed.texts = texts;
  },
};
