/**
 * A code-review bot as its docs suggest writing one: Claude Code's own system prompt with a line appended, the
 * project's settings (its CLAUDE.md and a review skill) loaded, read-only tools allowed, and the messages turned
 * into a log of what the agent did.
 */
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { text, toolCall } from './script-parts.ts';
import type { PublicProgram } from './public-runner.ts';

export const publicCodeReviewSkill: PublicProgram = {
  name: 'public: code review with a preset prompt, settingSources and a skill',
  project: () => ({
    'CLAUDE.md': '# House rules\nReviews name the function and the line.\n',
    '.claude/skills/code-review/SKILL.md':
      '---\nname: code-review\ndescription: How this team reviews TypeScript changes.\n---\n\nRead the file, then list each bug as `function: problem`.\n',
    'src/math.ts': 'export function add(a: number, b: number) {\n  return a - b;\n}\n',
  }),
  script: ({ cwd }) => ({
    model: [
      toolCall('toolu_skill', 'Skill', { skill: 'code-review' }),
      toolCall('toolu_read', 'Read', { file_path: join(cwd, 'src/math.ts') }),
      text('add: subtracts instead of adding (line 2).'),
    ],
  }),
  async main({ engine, print }) {
    const review = query({
      prompt: 'Review src/math.ts',
      options: {
        ...engine,
        systemPrompt: { type: 'preset', preset: 'claude_code', append: 'Keep every review under twenty words.' },
        settingSources: ['project'],
        allowedTools: ['Skill', 'Read', 'Grep', 'Glob'],
      },
    });
    let verdict: string | undefined;
    for await (const message of review) {
      switch (message.type) {
        case 'system':
          if (message.subtype === 'init') {
            print(`model ${message.model}, permission mode ${message.permissionMode}`);
            print(`has the review skill: ${message.skills.includes('code-review')}`);
          }
          break;
        case 'assistant':
          for (const block of message.message.content) {
            if (block.type === 'tool_use') print(`-> ${block.name} ${JSON.stringify(block.input).replaceAll(engine.cwd ?? '', '.')}`);
            if (block.type === 'text') print(`claude: ${block.text}`);
          }
          break;
        case 'result':
          if (message.subtype === 'success') {
            verdict = message.result;
            print(`review done in ${message.num_turns} turns (${message.is_error ? 'error' : 'ok'})`);
          } else {
            print(`review failed: ${message.subtype}`);
          }
          break;
      }
    }
    return verdict;
  },
};
