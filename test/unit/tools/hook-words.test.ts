/**
 * Tool hooks' words as Claude Code gives them (claude 2.1.334 side by side: test/agent-sdk/hook-texts.test.ts): a
 * hook's `additionalContext` is a `<event>:<tool> hook additional context:` system reminder, a post-tool hook hears
 * how long the tool ran, and a hook's denial whose reason is the whole text is not wrapped in turnloop's words.
 */
import { describe, expect, it } from 'vitest';
import { attachmentText } from '../../../src/model/to-api-messages.ts';
import { decidePermission } from '../../../src/tools/permission.ts';
import { runPostToolHooks, runPreToolHooks } from '../../../src/tools/tool-hooks.ts';
import { createBashTool } from '../../../src/tools/builtin/bash.ts';
import type { ToolContext } from '../../../src/tools/define-tool.ts';
import type { Attachment } from '../../../src/messages/types.ts';

const ctx: ToolContext = { toolUseId: 'toolu_1', idempotencyKey: 'toolu_1', signal: new AbortController().signal, context: {} };
let n = 0;
const newId = () => `id-${(n += 1)}`;
const textOf = (messages: Array<{ type: string; attachment?: Attachment }>) => messages.map((m) => (m.attachment ? attachmentText(m.attachment) : null));

describe('tool hook words', () => {
  it('additionalContext reaches the model as a hook additional context reminder naming the event and the tool', async () => {
    const pre = await runPreToolHooks([() => ({ additionalContext: 'pre words' })], { ...ctx, toolName: 'Bash', input: {}, newId });
    const post = await runPostToolHooks([() => ({ additionalContext: 'post words' })], { ...ctx, toolName: 'Read', input: {}, result: { content: 'x' }, newId });
    expect(textOf(pre.messages)).toEqual(['<system-reminder>\nPreToolUse:Bash hook additional context: pre words\n</system-reminder>']);
    expect(textOf(post.messages)).toEqual(['<system-reminder>\nPostToolUse:Read hook additional context: post words\n</system-reminder>']);
  });

  it('a post-tool hook is given the run time; a denial whose reason is its text is that text', async () => {
    let seen: number | undefined;
    await runPostToolHooks([({ durationMs }) => void (seen = durationMs)], { ...ctx, toolName: 'Read', input: {}, result: { content: 'x' }, newId, durationMs: 12 });
    expect(seen).toBe(12);
    const tool = createBashTool({ root: '/' });
    const pre = await runPreToolHooks([() => ({ decision: 'deny', reason: 'PreToolUse:Bash hook error: [h]: no', reasonIsText: true })], { ...ctx, toolName: 'Bash', input: {}, newId });
    expect(await decidePermission({ tool, input: { command: 'ls' }, ctx, hookDecision: pre.decision, hookReason: pre.reason, hookReasonIsText: pre.reasonIsText })).toEqual({ allowed: false, message: 'PreToolUse:Bash hook error: [h]: no' });
    expect(await decidePermission({ tool, input: { command: 'ls' }, ctx, hookDecision: 'deny', hookReason: 'no' })).toEqual({ allowed: false, message: 'Permission to use Bash was denied: no' });
  });
});
