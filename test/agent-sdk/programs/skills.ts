/** A project skill (`.claude/skills/<name>/SKILL.md`) with `settingSources: ['project']`, called through the Skill tool. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

export const projectSkill: SdkProgram = {
  name: 'a project skill with settingSources',
  script: () => ({
    model: [toolCall('toolu_skill_1', 'Skill', { skill: 'greet' }), text('Hello, as the skill says.')],
  }),
  async run({ options, dirs, api, observed }, seen) {
    const dir = join(dirs.cwd, '.claude/skills/greet');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), '---\nname: greet\ndescription: Greets the user warmly.\n---\n\nSay hello in three languages.\n');
    writeFileSync(join(dirs.cwd, 'CLAUDE.md'), 'Project memory: always be brief.\n');
    await drain(query({ prompt: 'Greet me.', options: { ...options, settingSources: ['project'], allowedTools: ['Skill'] } }), seen);
    const init = seen.find((m) => m.type === 'system' && m.subtype === 'init') as { skills?: string[] } | undefined;
    observed.firstSkill = init?.skills?.[0];
    observed.memoryReachedModel = JSON.stringify(api.log[0]?.body).includes('Project memory: always be brief.');
  },
};
