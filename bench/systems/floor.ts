/**
 * System 1, the floor: the smallest loop that does the job by hand. Call the model, append its reply, run the
 * tool calls, append their results, repeat until a reply has no tool call. Anthropic-shaped messages, no checks.
 */
import { echo, PROMPT, prefilledHistory, type System, type TurnProbe } from '../workload.ts';

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: { text: string } }
  | { type: 'tool_result'; tool_use_id: string; content: string };
interface FloorMessage {
  role: 'user' | 'assistant';
  content: string | Block[];
}

/** The model, as an async call (every real model call is). */
async function callModel(probe: TurnProbe, turns: number, _messages: readonly FloorMessage[]): Promise<FloorMessage> {
  const answer = probe.next(turns);
  if (answer.kind === 'text') return { role: 'assistant', content: [{ type: 'text', text: answer.text }] };
  return { role: 'assistant', content: [{ type: 'tool_use', id: answer.id, name: answer.name, input: answer.input }] };
}

async function runTool(block: Extract<Block, { type: 'tool_use' }>): Promise<Block> {
  return { type: 'tool_result', tool_use_id: block.id, content: echo(block.input) };
}

export const floorSystem: System = {
  name: 'hand-written loop (floor)',
  label: 'floor',
  async run({ turns, history }, probe) {
    const messages: FloorMessage[] = prefilledHistory(history).map((e) => ({ role: e.role, content: e.text }));
    messages.push({ role: 'user', content: PROMPT });
    while (true) {
      const reply = await callModel(probe, turns, messages);
      messages.push(reply);
      const toolUses = (reply.content as Block[]).filter((b): b is Extract<Block, { type: 'tool_use' }> => b.type === 'tool_use');
      if (toolUses.length === 0) break;
      const results: Block[] = [];
      for (const toolUse of toolUses) results.push(await runTool(toolUse));
      messages.push({ role: 'user', content: results });
    }
    return { retained: messages };
  },
};
