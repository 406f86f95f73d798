/**
 * A Task call with `run_in_background: true` (issue 38 item 6), through the real `claude` and through `turnloop`,
 * driven by the Agent SDK on one script (inside run-offline.sh). Both answer the call at once with the launch
 * text, and both send the model the subagent's report as a `<task-notification>` naming the call. What is left
 * (Extension `backgroundAgentTool`): claude lets the turn end first and sends the notification as a new turn (a
 * second result); turnloop waits for the child at the next attachment collection, so the notification follows
 * the launch text in the next request and there is one result.
 */
import { describe, expect, it } from 'vitest';
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import type { EngineName } from './harness/engines.ts';
import { runProgram } from './harness/sdk-program.ts';
import { backgroundSubagent } from './programs/background-subagent.ts';

const LAUNCHED = /^Async agent launched successfully\. \(This tool result is internal metadata/;
const NOTIFICATION = /<task-notification>\n<task-id>[^<]+<\/task-id>\n<tool-use-id>toolu_task_bg<\/tool-use-id>\n(?:<output-file>[^<]*<\/output-file>\n)?<status>completed<\/status>\n<summary>Agent "Count files" finished<\/summary>\n(?:<note>[^<]*<\/note>\n)?<result>Done\.<\/result>/;

function toolResultText(messages: readonly SDKMessage[]): string {
  for (const m of messages) {
    if (m.type !== 'user' || m.parent_tool_use_id !== null || !Array.isArray(m.message.content)) continue;
    for (const b of m.message.content) {
      if (b.type !== 'tool_result' || b.tool_use_id !== 'toolu_task_bg') continue;
      return typeof b.content === 'string' ? b.content : (b.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
    }
  }
  return '';
}

/** The texts of the main loop's requests' last user turn. */
function lastUserTexts(body: unknown): string {
  const messages = ((body ?? {}) as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
  const last = messages.at(-1);
  if (!last || last.role !== 'user') return '';
  return typeof last.content === 'string' ? last.content : (last.content as Array<{ type: string; text?: string; content?: unknown }>).map((b) => b.text ?? JSON.stringify(b.content ?? '')).join('\n');
}

describe.each<EngineName>(['claude', 'turnloop'])('a background Task call on %s', (engine) => {
  it('answers the call at once with the launch text and sends the report as a task-notification', async () => {
    const run = await runProgram(backgroundSubagent, engine);
    expect(run.error).toBeUndefined();
    expect(toolResultText(run.messages)).toMatch(LAUNCHED);
    const notified = run.requests.filter((r) => NOTIFICATION.test(lastUserTexts(r.body)));
    expect(notified.length).toBe(1);
    const results = run.messages.filter((m) => m.type === 'result');
    expect(results.every((r) => r.type === 'result' && r.subtype === 'success' && !r.is_error)).toBe(true);
    // The one difference left (Extension backgroundAgentTool): when the notification arrives.
    expect(results.length).toBe(engine === 'claude' ? 2 : 1);
  });
});
