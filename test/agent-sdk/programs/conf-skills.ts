/**
 * The SDK's `skills` option (the allow-list of skills offered), as claude 2.1.334 applies it
 * (docs/agent-sdk-conformance.md): two project skills, `greet` and `shout`; with `skills: ['greet']` only `greet` is
 * listed (in `init` and to the model) and a Skill call to `shout` is refused; `skills: 'all'` and no option offer both.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { drain, type SdkProgram } from '../harness/sdk-program.ts';
import { text, toolCall } from './script-parts.ts';

function writeSkill(cwd: string, name: string, description: string, body: string): void {
  const dir = join(cwd, '.claude/skills', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`);
}

function confSkillsProgram(name: string, skills: string[] | 'all' | undefined): SdkProgram {
  return {
    name,
    script: () => ({
      model: [toolCall('toolu_shout', 'Skill', { skill: 'shout' }), toolCall('toolu_greet', 'Skill', { skill: 'greet' }), text('Done.')],
    }),
    async run({ options, dirs, api, observed }, seen) {
      writeSkill(dirs.cwd, 'greet', 'Greets the user warmly.', 'GREET-BODY: say hello in three languages.');
      writeSkill(dirs.cwd, 'shout', 'Shouts at the user.', 'SHOUT-BODY: answer in capitals.');
      await drain(query({ prompt: 'Use the skills.', options: { ...options, settingSources: ['project'], allowedTools: ['Skill'], ...(skills !== undefined ? { skills } : {}) } }), seen);
      const init = seen.find((m) => m.type === 'system' && m.subtype === 'init') as { skills?: string[]; slash_commands?: string[] } | undefined;
      observed.initSkills = init?.skills?.filter((s) => s === 'greet' || s === 'shout').sort() ?? null;
      observed.initCommands = init?.slash_commands?.filter((s) => s === 'greet' || s === 'shout').sort() ?? null;
      const first = JSON.stringify(api.log[0]?.body ?? {});
      observed.listedToModel = { greet: first.includes('Greets the user warmly.'), shout: first.includes('Shouts at the user.') };
      const results = seen.flatMap((m) => (m.type === 'user' ? ((m as { message: { content: unknown } }).message.content as Array<{ type: string; tool_use_id?: string; content?: unknown; is_error?: boolean }>) : []))
        .filter((b) => typeof b === 'object' && b.type === 'tool_result');
      observed.results = results.map((r) => ({ id: r.tool_use_id, isError: r.is_error === true, text: typeof r.content === 'string' ? r.content : JSON.stringify(r.content) }));
      observed.skillToolOffered = ((api.log[0]?.body as { tools?: Array<{ name: string }> } | undefined)?.tools ?? []).some((t) => t.name === 'Skill');
      const last = JSON.stringify(api.log.at(-1)?.body ?? {});
      observed.bodiesToModel = { greet: last.includes('GREET-BODY'), shout: last.includes('SHOUT-BODY') };
    },
  };
}

export const confSkillsListed = confSkillsProgram('skills: [greet] offers greet alone', ['greet']);
export const confSkillsAll = confSkillsProgram('skills: all offers every skill', 'all');
export const confSkillsNone = confSkillsProgram('skills: [] offers none', []);
