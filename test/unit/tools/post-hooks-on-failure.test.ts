/**
 * A tool that throws still reaches the post-tool hooks, with its error result (Claude Code runs its
 * PostToolUseFailure hooks there); the SDK's hooks hear it as PostToolUseFailure. Before, a throwing call skipped
 * every post-tool hook, so an SDK program's PostToolUseFailure hook never ran (found by test/agent-sdk's public
 * hook-logger program, where claude runs it for a Read of a missing file).
 */
import { expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/tools/define-tool.ts';
import { runToolUse } from '../../../src/tools/run-tool-use.ts';
import type { PostToolHookInput } from '../../../src/tools/call-deps.ts';
import { sdkPostToolHook, type HookContext } from '../../../src/agent-sdk/sdk-hooks.ts';
import type { JsonObject } from '../../../src/agent-sdk/json-lines.ts';
import { isErrorResult, resultText, depsFor, toolUse } from './fixtures.ts';

const failing = defineTool({
  name: 'Read',
  description: '',
  inputSchema: z.object({ file_path: z.string() }),
  isReadOnly: () => true,
  call: () => {
    throw new Error('No such file: missing.md');
  },
});

it("a tool that throws: the post-tool hooks get its error result, and what they add goes with it", async () => {
  const heard: PostToolHookInput[] = [];
  const event = await runToolUse(toolUse('t1', 'Read', { file_path: 'missing.md' }), depsFor([failing], {
    canUseTool: () => ({ behavior: 'allow' }),
    postToolHooks: [(input) => { heard.push(input); return { additionalContext: 'logged' }; }],
  }), { signal: new AbortController().signal, context: {} });
  expect(isErrorResult(event)).toBe(true);
  expect(resultText(event)).toBe('Error: No such file: missing.md');
  expect(heard.map((h) => [h.toolName, h.input, h.result])).toEqual([['Read', { file_path: 'missing.md' }, { content: 'Error: No such file: missing.md', isError: true }]]);
  expect(event.extra).toEqual([expect.objectContaining({ type: 'attachment' })]);
});

it('the SDK program hears a failed call as PostToolUseFailure (with the error), a good one as PostToolUse', async () => {
  const asked: JsonObject[] = [];
  const context: HookContext = { ask: async (request) => { asked.push(request); return {}; }, base: () => ({ session_id: 's' }), warn: () => undefined };
  const hook = sdkPostToolHook({ PostToolUse: [{ hookCallbackIds: ['ok'] }], PostToolUseFailure: [{ matcher: 'Read', hookCallbackIds: ['failed'] }] }, context);
  const base = { toolName: 'Read', input: { file_path: 'a' }, toolUseId: 't1', idempotencyKey: 't1', signal: new AbortController().signal, context: {}, newId: () => 'id' };
  await hook({ ...base, result: { content: 'Error: No such file', isError: true } });
  await hook({ ...base, result: { content: 'text' } });
  expect(asked.map((r) => [r.callback_id, (r.input as JsonObject).hook_event_name, (r.input as JsonObject).error ?? (r.input as JsonObject).tool_response])).toEqual([
    ['failed', 'PostToolUseFailure', 'Error: No such file'],
    ['ok', 'PostToolUse', 'text'],
  ]);
});
