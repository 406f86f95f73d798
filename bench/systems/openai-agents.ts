/**
 * System 7: OpenAI Agents JS `run()` with a custom `Model` answering from the script, one `echo` function tool,
 * `maxTurns: turns + 1` and tracing disabled (the default exporter would try to reach the network).
 */
import { Agent, run, setTracingDisabled, tool, Usage, type AgentInputItem, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';
import { z } from 'zod';
import { echo, PROMPT, prefilledHistory, type System, type TurnProbe } from '../workload.ts';

setTracingDisabled(true);

class ScriptedModel implements Model {
  constructor(private readonly probe: TurnProbe, private readonly turns: number) {}

  async getResponse(_request: ModelRequest): Promise<ModelResponse> {
    const answer = this.probe.next(this.turns);
    const usage = new Usage({ requests: 1, inputTokens: 1_000, outputTokens: 20, totalTokens: 1_020 });
    if (answer.kind === 'text') {
      return { usage, output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer.text }] }] };
    }
    return {
      usage,
      output: [{ type: 'function_call', callId: answer.id, name: answer.name, arguments: JSON.stringify(answer.input), status: 'completed' }],
    };
  }

  getStreamedResponse(): never {
    throw new Error('the benchmark does not stream');
  }
}

const echoTool = tool({
  name: 'echo',
  description: 'Answers its text unchanged.',
  parameters: z.object({ text: z.string() }),
  execute: async (input) => echo(input),
});

export const openAiAgentsSystem: System = {
  name: 'OpenAI Agents JS run() + custom Model',
  label: 'openai-agents',
  async run({ turns, history }, probe) {
    const agent = new Agent({ name: 'bench', instructions: 'Call echo until told otherwise.', model: new ScriptedModel(probe, turns), tools: [echoTool] });
    const input: AgentInputItem[] = prefilledHistory(history).map((e): AgentInputItem =>
      e.role === 'user'
        ? { role: 'user', content: e.text }
        : { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: e.text }] },
    );
    input.push({ role: 'user', content: PROMPT });
    const result = await run(agent, input, { maxTurns: turns + 1 });
    if (result.finalOutput !== 'All done.') throw new Error(`openai-agents: unexpected final output ${JSON.stringify(result.finalOutput)}`);
    return { retained: result };
  },
};
