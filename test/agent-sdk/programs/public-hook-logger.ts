/**
 * An audit logger that registers a hook on the session's life cycle, as people do to trace what an agent did:
 * SessionStart, UserPromptSubmit (adding context), PreToolUse on `Read|Glob` (a regex matcher), PostToolUse,
 * PostToolUseFailure, SubagentStart, SubagentStop, Stop and SessionEnd, each printing one line.
 */
import { join } from 'node:path';
import { query, type HookCallback, type HookEvent, type HookCallbackMatcher } from '@anthropic-ai/claude-agent-sdk';
import { text, toolCall } from './script-parts.ts';
import type { PublicProgram } from './public-runner.ts';

export const publicHookLogger: PublicProgram = {
  name: 'public: hooks on the session life cycle, with regex matchers',
  project: () => ({ 'notes/todo.md': '- ship it\n' }),
  script: ({ cwd }) => ({
    model: [
      toolCall('toolu_glob', 'Glob', { pattern: '**/*.md' }),
      toolCall('toolu_missing', 'Read', { file_path: join(cwd, 'notes/missing.md') }),
      toolCall('toolu_task', 'Task', { description: 'Summarize', prompt: 'Summarize notes/todo.md in three words.', subagent_type: 'general-purpose', run_in_background: false }),
      text('Ship it now.'), // the subagent's report
      text('One thing to do: ship it.'),
    ],
  }),
  async main({ engine, print }) {
    const log: string[] = [];
    const logger = (label: (input: Parameters<HookCallback>[0]) => string, output: Record<string, unknown> = {}): HookCallback => async (input) => {
      log.push(label(input));
      return output;
    };
    const on = (matcher: string | undefined, callback: HookCallback): HookCallbackMatcher[] => [{ ...(matcher ? { matcher } : {}), hooks: [callback] }];
    const toolOf = (input: Parameters<HookCallback>[0]) => ('tool_name' in input ? String(input.tool_name) : '?');
    const hooks: Partial<Record<HookEvent, HookCallbackMatcher[]>> = {
      SessionStart: on(undefined, logger((i) => `session start (${'source' in i ? i.source : '?'})`)),
      UserPromptSubmit: on(undefined, logger(() => 'prompt', { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'The team ships on Fridays.' } })),
      PreToolUse: on('Read|Glob', logger((i) => `before ${toolOf(i)}`)),
      PostToolUse: on(undefined, logger((i) => `after ${toolOf(i)}`)),
      PostToolUseFailure: on(undefined, logger((i) => `failed ${toolOf(i)}`)),
      SubagentStart: on(undefined, logger((i) => `subagent start ${'agent_type' in i ? i.agent_type : '?'}`)),
      SubagentStop: on(undefined, logger(() => 'subagent stop')),
      Stop: on(undefined, logger(() => 'stop')),
      SessionEnd: on(undefined, logger(() => 'session end')),
    };
    let answer: string | undefined;
    for await (const message of query({ prompt: 'What is left to do in notes/?', options: { ...engine, hooks, allowedTools: ['Read', 'Glob', 'Task'] } })) {
      if (message.type === 'result') answer = message.subtype === 'success' ? message.result : message.subtype;
    }
    // SessionEnd runs as the process closes: give it a moment to arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const line of log) print(line);
    return answer;
  },
};
