/** `--agent` (main-agent.ts): the main thread's tools as the program's agent has them, and an agent that is not there. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/tools/define-tool.ts';
import { findMainAgent, mainAgentTools } from '../../../src/agent-sdk/main-agent.ts';

const tool = (name: string) => defineTool({ name, description: '', inputSchema: z.object({}), call: () => ({ content: '' }) });
const ALL = ['Agent', 'Bash', 'Read', 'Grep', 'StructuredOutput'].map(tool);
const namesOf = (tools: ReturnType<typeof mainAgentTools>) => tools.map((t) => t.name);

describe('mainAgentTools', () => {
  it('keeps the agent\'s tools (Task names the subagent tool too), less its disallowed ones; StructuredOutput stays', () => {
    expect(namesOf(mainAgentTools(ALL, { tools: ['Read', 'Task'] }))).toEqual(['Agent', 'Read', 'StructuredOutput']);
    expect(namesOf(mainAgentTools(ALL, { disallowedTools: ['Bash'] }))).toEqual(['Agent', 'Read', 'Grep', 'StructuredOutput']);
    expect(namesOf(mainAgentTools(ALL, {}))).toEqual(namesOf(ALL));
  });
});

describe('findMainAgent', () => {
  it('finds the program\'s agent, and names the known ones when it is not there', () => {
    expect(findMainAgent('reviewer', { reviewer: { prompt: 'p' } })).toEqual({ agent: { prompt: 'p' } });
    expect(findMainAgent('nobody', { reviewer: {} })).toEqual({ problem: '--agent nobody: no such agent among the program\'s agents (reviewer); the main thread runs as itself' });
    expect(findMainAgent('toString', {})).toMatchObject({ problem: expect.stringContaining('no such agent') });
  });

  it('names a definition whose prompt, tools or disallowedTools has the wrong type, instead of running with it', () => {
    for (const [field, value] of [['tools', 'Read'], ['disallowedTools', [1]], ['prompt', 7]] as const) {
      const found = findMainAgent('reviewer', { reviewer: { prompt: 'p', [field]: value } });
      expect(found).toEqual({ problem: `--agent reviewer: the agent's ${field} is ${JSON.stringify(value)}, expected ${field === 'prompt' ? 'a string' : 'an array of tool names'}; the main thread runs as itself` });
    }
  });
});
