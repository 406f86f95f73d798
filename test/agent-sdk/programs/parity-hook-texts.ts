/**
 * What hooks' words look like to the model and to a program (issue #38): a PreToolUse command hook in
 * `.claude/settings.json` that exits 2 (its denial's text), and the program's PreToolUse and PostToolUse callbacks
 * answering `additionalContext` (how it reaches the next request), the PostToolUse input's fields (`duration_ms`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query, type HookCallback } from '@anthropic-ai/claude-agent-sdk';
import type { SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

const HOOK_SCRIPT = `#!/bin/sh
case "$(cat)" in
  *'rm -f'*) echo "removing is not allowed here" >&2; exit 2;;
esac
`;

export const parityHookTexts: SdkProgram = {
  name: 'parity: the texts of hook denials and hook context',
  script: () => ({
    model: [
      toolCall('toolu_rm', 'Bash', { command: 'rm -f gone.txt', description: 'Remove a file' }),
      toolCall('toolu_echo', 'Bash', { command: 'echo hi', description: 'Say hi' }),
      text('Done.'),
    ],
  }),
  async run({ options, dirs, observed, api }, seen) {
    writeFileSync(join(dirs.cwd, 'hook.sh'), HOOK_SCRIPT, { mode: 0o755 });
    writeFileSync(join(dirs.cwd, 'gone.txt'), '');
    mkdirSync(join(dirs.cwd, '.claude'), { recursive: true });
    writeFileSync(join(dirs.cwd, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './hook.sh' }] }] } }));
    const postInputs: Array<Record<string, unknown>> = [];
    const pre: HookCallback = async (input) => ((input as { tool_input?: { command?: string } }).tool_input?.command === 'echo hi' ? { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'pre-callback context' } } : {});
    const post: HookCallback = async (input) => {
      postInputs.push(input as unknown as Record<string, unknown>);
      return { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'post-callback context' } };
    };
    for await (const message of query({
      prompt: 'Remove gone.txt, then say hi.',
      options: { ...options, settingSources: ['project'], hooks: { PreToolUse: [{ hooks: [pre] }], PostToolUse: [{ hooks: [post] }] }, canUseTool: async (_tool, input) => ({ behavior: 'allow', updatedInput: input }) },
    })) seen.push(message);
    const last = api.log.at(-1)?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined;
    const blocks = (last?.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : [{ type: 'text', text: m.content }]));
    const resultOf = (id: string) => blocks.find((b) => b.type === 'tool_result' && b.tool_use_id === id)?.content;
    observed.denial = resultOf('toolu_rm');
    // Every text the model was sent that carries a hook's context, wherever it was put.
    observed.contextTexts = blocks.flatMap((b) => {
      const t = typeof b.text === 'string' ? b.text : typeof b.content === 'string' ? b.content : JSON.stringify(b.content ?? '');
      return t.includes('callback context') ? [t] : [];
    });
    observed.postInputs = postInputs.map((i) => ({ keys: Object.keys(i).sort().join(','), durationType: typeof i.duration_ms }));
  },
};
