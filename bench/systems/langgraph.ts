/**
 * System 6: LangGraph.js `createReactAgent` (from `@langchain/langgraph/prebuilt`; deprecated in favour of
 * `createAgent` in the separate `langchain` package, but still shipped and the graph LangGraph itself provides)
 * with a scripted chat model, one `echo` tool and a `MemorySaver` checkpointer (a fresh thread per run).
 */
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { echo, PROMPT, prefilledHistory, type System, type TurnProbe } from '../workload.ts';

/** A chat model answering from the script; tool binding is a no-op (the script already knows the tool). */
class ScriptedChatModel extends BaseChatModel {
  constructor(private readonly probe: TurnProbe, private readonly turns: number) {
    super({});
  }

  _llmType(): string {
    return 'bench-scripted';
  }

  override bindTools(): this {
    return this;
  }

  async _generate(_messages: BaseMessage[]): Promise<ChatResult> {
    const answer = this.probe.next(this.turns);
    const message = answer.kind === 'text'
      ? new AIMessage({ content: answer.text })
      : new AIMessage({ content: '', tool_calls: [{ id: answer.id, name: answer.name, args: answer.input, type: 'tool_call' }] });
    return { generations: [{ text: answer.kind === 'text' ? answer.text : '', message }] };
  }
}

const echoTool = tool(async (input: { text: string }) => echo(input), {
  name: 'echo',
  description: 'Answers its text unchanged.',
  schema: z.object({ text: z.string() }),
});

let thread = 0;

export const langGraphSystem: System = {
  name: 'LangGraph.js createReactAgent + MemorySaver',
  label: 'langgraph',
  async run({ turns, history }, probe) {
    const agent = createReactAgent({ llm: new ScriptedChatModel(probe, turns), tools: [echoTool], checkpointSaver: new MemorySaver() });
    const messages: BaseMessage[] = prefilledHistory(history).map((e) => (e.role === 'user' ? new HumanMessage(e.text) : new AIMessage(e.text)));
    messages.push(new HumanMessage(PROMPT));
    const state = await agent.invoke({ messages }, { configurable: { thread_id: `bench-${++thread}` }, recursionLimit: 2 * turns + 10 });
    const last = state.messages[state.messages.length - 1];
    if (last?.content !== 'All done.') throw new Error(`langgraph: unexpected final message ${JSON.stringify(last?.content)}`);
    return { retained: { agent, state } };
  },
};
