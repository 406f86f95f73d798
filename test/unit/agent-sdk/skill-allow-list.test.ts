/**
 * The SDK's `skills` option (`initialize.skills`, skills.ts `skillAllowList`): as claude 2.1.334, `init` lists every
 * skill, the model's list holds the allowed ones and the Skill tool refuses the others; a value that is neither a
 * list of names nor `'all'` is a clear error.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initialize, runHeadless, SDK_ARGS, tempProject, userLine, writeScript, type Line } from './headless-harness.ts';
import { skillAllowList, sourcesContext, type SkillDefinition } from '../../../src/agent-sdk/skills.ts';

function project(): string {
  const cwd = tempProject();
  for (const [name, description] of [['greet', 'Greets.'], ['shout', 'Shouts.']]) {
    mkdirSync(join(cwd, '.claude/skills', name), { recursive: true });
    writeFileSync(join(cwd, '.claude/skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`);
  }
  return cwd;
}

const callSkills = {
  model: [
    { content: [{ type: 'tool_use' as const, id: 'toolu_shout', name: 'Skill', input: { skill: 'shout' } }] },
    { content: [{ type: 'tool_use' as const, id: 'toolu_greet', name: 'Skill', input: { skill: 'greet' } }] },
    { content: [{ type: 'text' as const, text: 'done' }] },
  ],
};

const skill = (name: string, dir = `/p/.claude/skills/${name}`): SkillDefinition => ({ name, description: `${name}s.`, body: '', dir, source: 'project' });

describe('skillAllowList', () => {
  it('offers every skill for none or all, the named ones (by name or directory) for a list, and refuses anything else', () => {
    expect(skillAllowList(undefined)!(skill('a'))).toBe(true);
    expect(skillAllowList('all')!(skill('a'))).toBe(true);
    const listed = skillAllowList(['a', 'dir-b'])!;
    expect([listed(skill('a')), listed(skill('b', '/p/.claude/skills/dir-b')), listed(skill('c'))]).toEqual([true, true, false]);
    expect(skillAllowList([])!(skill('a'))).toBe(false);
    expect(skillAllowList('some')).toBeUndefined();
    expect(skillAllowList([1])).toBeUndefined();
  });

  it('the model\'s list holds the offered skills only', () => {
    const text = sourcesContext({ skills: [skill('a'), skill('b')], memory: [] }, skillAllowList(['b'])!)!;
    expect(text).toContain('- b: bs.');
    expect(text).not.toContain('- a:');
    expect(sourcesContext({ skills: [skill('a')], memory: [] }, skillAllowList([])!)).toBeUndefined();
  });
});

describe('skills in initialize', () => {
  it('init lists both skills; the Skill tool refuses the unlisted one with claude\'s text and launches the listed one', async () => {
    const cwd = project();
    const run = await runHeadless([...SDK_ARGS, '--setting-sources', 'project', '--fake-api', writeScript(cwd, callSkills)], {
      cwd,
      opening: [initialize({ skills: ['greet'] }), userLine('go')],
    });
    expect(run.lines.find((l) => l.subtype === 'init')).toMatchObject({ skills: ['greet', 'shout'] });
    const results = run.lines.filter((l) => l.type === 'user').flatMap((l: Line) => l.message.content).filter((b: Line) => b.type === 'tool_result');
    expect(results.map((r: Line) => [r.tool_use_id, r.is_error === true, r.content])).toEqual([
      ['toolu_shout', true, '<tool_use_error>Skill shout is not in this session\'s skills allowlist</tool_use_error>'],
      ['toolu_greet', false, 'Launching skill: greet'],
    ]);
    expect(run.stderr).not.toContain('skills');
  });

  it('a skills value that is not a list of names refuses initialize with the reason; the turn still runs', async () => {
    const cwd = project();
    const run = await runHeadless([...SDK_ARGS, '--setting-sources', 'project', '--fake-api', writeScript(cwd, callSkills)], {
      cwd,
      opening: [initialize({ skills: 'some' }), userLine('go')],
    });
    const response = run.lines.find((l) => l.type === 'control_response');
    expect(response?.response).toMatchObject({ subtype: 'error', request_id: 'init-1', error: 'initialize: skills: expected an array of skill names or \'all\', got "some"' });
    expect(run.lines.filter((l) => l.type === 'result').map((l) => l.subtype)).toEqual(['success']);
  });
});
