/**
 * A to-do agent with custom tools, the pattern of the SDK's custom-tools guide: an in-process MCP server
 * (`createSdkMcpServer` + `tool` with a Zod shape) whose handlers keep the list in `todos.json`, only those tools
 * and two Bash prefixes allowed (`allowedTools` rules), and a variable the program passes through `env`.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createSdkMcpServer, query, tool } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { text, toolCall } from './script-parts.ts';
import type { PublicProgram } from './public-runner.ts';

export const publicTodoMcp: PublicProgram = {
  name: 'public: SDK MCP tools, an allowedTools Bash rule and env',
  script: () => ({
    model: [
      toolCall('toolu_add_1', 'mcp__todos__add_todo', { title: 'buy milk', priority: 'high' }),
      toolCall('toolu_add_2', 'mcp__todos__add_todo', { title: 'call the plumber' }),
      toolCall('toolu_list', 'mcp__todos__list_todos', {}),
      toolCall('toolu_owner', 'Bash', { command: 'printf "%s" "$TODO_OWNER" > owner.txt', description: 'Record the owner' }),
      toolCall('toolu_whoami', 'Bash', { command: 'printenv TODO_OWNER', description: 'Show the owner' }),
      text('Two to-dos added for ada.'),
    ],
  }),
  async main({ engine, cwd, print }) {
    const file = join(cwd, 'todos.json');
    const load = (): Array<{ title: string; priority: string }> => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : []);
    const todos = createSdkMcpServer({
      name: 'todos',
      version: '0.1.0',
      tools: [
        tool('add_todo', 'Add a to-do item', { title: z.string(), priority: z.enum(['low', 'high']).default('low') }, async ({ title, priority }) => {
          const list = [...load(), { title, priority }];
          writeFileSync(file, JSON.stringify(list, null, 2) + '\n');
          return { content: [{ type: 'text', text: `Added "${title}" (${list.length} open)` }] };
        }),
        tool('list_todos', 'List the open to-do items', {}, async () => ({
          content: [{ type: 'text', text: load().map((t, i) => `${i + 1}. ${t.title} [${t.priority}]`).join('\n') }],
        })),
      ],
    });
    for await (const message of query({
      prompt: 'Add "buy milk" (high) and "call the plumber", list them, and record who owns the list.',
      options: {
        ...engine,
        mcpServers: { todos },
        allowedTools: ['mcp__todos__add_todo', 'mcp__todos__list_todos', 'Bash(printf:*)', 'Bash(printenv:*)'],
        env: { ...engine.env, TODO_OWNER: 'ada' },
      },
    })) {
      if (message.type === 'system' && message.subtype === 'init') {
        print(`todo tools: ${message.tools.filter((t) => t.startsWith('mcp__todos__')).sort().join(', ')}`);
        print(`servers: ${message.mcp_servers.map((s) => `${s.name}=${s.status}`).join(', ')}`);
      }
      if (message.type === 'user' && Array.isArray(message.message.content)) {
        for (const block of message.message.content) {
          if (block.type === 'tool_result') {
            const body = typeof block.content === 'string' ? block.content : (block.content ?? []).map((c) => (c.type === 'text' ? c.text : c.type)).join('');
            print(`${block.is_error ? 'error' : 'ok'}: ${body}`);
          }
        }
      }
      if (message.type === 'result') print(`${message.subtype}, ${message.num_turns} turns, ${message.permission_denials.length} denied`);
    }
    return load();
  },
};
