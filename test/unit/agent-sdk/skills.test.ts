/** Setting sources, skills (SKILL.md, the Skill tool) and memory files in the headless mode. */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHeadless, SDK_ARGS, tempProject, writeScript, type Line } from './headless-harness.ts';
import { parseSkillFile } from '../../../src/agent-sdk/skills.ts';
import { sessionLogPath } from '../../../src/agent-sdk/session-store.ts';
import { startFakeAnthropicApi } from '../../../src/fake-api/index.ts';

function skill(root: string, name: string, text: string): void {
  mkdirSync(join(root, '.claude/skills', name), { recursive: true });
  writeFileSync(join(root, '.claude/skills', name, 'SKILL.md'), text);
}

const callSkill = (name: string) => ({
  model: [
    { content: [{ type: 'tool_use' as const, id: 'toolu_s', name: 'Skill', input: { skill: name } }] },
    { content: [{ type: 'text' as const, text: 'done' }] },
  ],
});


describe('skills and setting sources', () => {
  it('a project skill is listed in init, launched by the Skill tool, and its body follows the tool result', async () => {
    const cwd = tempProject();
    skill(cwd, 'greet', '---\nname: greet\ndescription: Greets warmly.\n---\n\nSay hello in three languages.\n');
    writeFileSync(join(cwd, 'CLAUDE.md'), 'Always be brief.\n');
    const run = await runHeadless([...SDK_ARGS, '--setting-sources', 'project', '--fake-api', writeScript(cwd, callSkill('greet'))], { cwd });
    const init = run.lines.find((l) => l.subtype === 'init');
    expect(init).toMatchObject({ skills: ['greet'], slash_commands: ['greet'], agents: ['general-purpose'] });
    expect(init?.tools).toContain('Skill');
    // supportedCommands() and supportedAgents() read the initialize response.
    const initialized = run.lines.find((l) => l.type === 'control_response' && l.response.request_id === 'init-1');
    expect(initialized?.response.response).toMatchObject({ commands: [{ name: 'greet', description: 'Greets warmly.', argumentHint: '' }], agents: [{ name: 'general-purpose' }] });
    const users = run.lines.filter((l) => l.type === 'user').map((l) => l.message.content);
    expect(users).toEqual([
      [{ type: 'tool_result', tool_use_id: 'toolu_s', content: 'Launching skill: greet' }],
      [{ type: 'text', text: expect.stringMatching(/^Base directory for this skill: .*\/\.claude\/skills\/greet\n\nSay hello in three languages\.\n$/) }],
    ]);
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', num_turns: 3 });
    // The memory file and the skill list reached the model before the prompt (the session log holds the run).
    const log = readFileSync(sessionLogPath(cwd, init?.session_id), 'utf8');
    expect(log).toContain('Always be brief.');
    expect(log).toContain('- greet: Greets warmly.');
  });

  it('with no sources, nothing is read: no skills, no Skill tool', async () => {
    const cwd = tempProject();
    skill(cwd, 'greet', '---\ndescription: Greets.\n---\nHi.\n');
    const run = await runHeadless([...SDK_ARGS, '--setting-sources', '', '--fake-api', writeScript(cwd, { model: [{ content: [{ type: 'text', text: 'ok' }] }] })], { cwd });
    const init = run.lines.find((l) => l.subtype === 'init');
    expect(init?.skills).toEqual([]);
    expect(init?.tools).not.toContain('Skill');
  });

  it('an unknown setting source is a clear error, exit 2', async () => {
    const cwd = tempProject();
    const run = await runHeadless([...SDK_ARGS, '--setting-sources', 'project,global', '--fake-api', writeScript(cwd, { model: [] })], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--setting-sources: unknown source 'global' (expected a comma-separated list of user, project, local)");
  });

  it('a skill file that is not valid is named on stderr and left out; a skill linked from outside the workspace is refused', async () => {
    const cwd = tempProject();
    const outside = tempProject();
    skill(cwd, 'broken', '---\nname: [unclosed\n---\nbody\n');
    skill(cwd, 'typed', '---\nname: 3\n---\nbody\n');
    skill(outside, 'stolen', '---\ndescription: secret\n---\nsecret body\n');
    mkdirSync(join(cwd, '.claude/skills/linked'), { recursive: true });
    symlinkSync(join(outside, '.claude/skills/stolen/SKILL.md'), join(cwd, '.claude/skills/linked/SKILL.md'));
    skill(cwd, 'fine', '---\ndescription: Works.\n---\nbody\n');
    const run = await runHeadless([...SDK_ARGS, '--setting-sources', 'project', '--fake-api', writeScript(cwd, { model: [{ content: [{ type: 'text', text: 'ok' }] }] })], { cwd });
    expect(run.lines.find((l) => l.subtype === 'init')?.skills).toEqual(['fine']);
    expect(run.stderr).toMatch(/the skill .*broken\/SKILL\.md is left out: its front matter is not YAML/);
    expect(run.stderr).toMatch(/the skill .*typed\/SKILL\.md is left out: its front matter's name is invalid: expected a string/);
    expect(run.stderr).toMatch(/the skill .*linked\/SKILL\.md is left out: Access denied/);
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success' });
  });

  it('an unknown skill name is an error result naming the known ones', async () => {
    const cwd = tempProject();
    skill(cwd, 'greet', '---\ndescription: Greets.\n---\nHi.\n');
    const run = await runHeadless([...SDK_ARGS, '--setting-sources', 'project', '--fake-api', writeScript(cwd, callSkill('nope'))], { cwd });
    const result = run.lines.filter((l) => l.type === 'user').flatMap((l: Line) => l.message.content)[0];
    expect(result).toMatchObject({ is_error: true, content: 'Unknown skill: nope. Available skills: greet' });
  });
});

describe('what reaches the model', () => {
  it('the skill body reaches the model in the next request', async () => {
    const cwd = tempProject();
    skill(cwd, 'greet', '---\ndescription: Greets.\n---\nSay hello twice.\n');
    const api = await startFakeAnthropicApi(callSkill('greet'));
    try {
      await runHeadless([...SDK_ARGS, '--setting-sources', 'project'], { cwd, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: api.baseURL } });
      const last = JSON.stringify((api.log.at(-1)?.body as { messages: unknown[] }).messages.at(-1));
      expect(last).toContain('tool_result');
      expect(last).toContain('<context name=\\"skill\\">\\nBase directory for this skill:');
      expect(last).toContain('Say hello twice.');
    } finally {
      await api.close();
    }
  });

  it('memory files above the working directory are not read', async () => {
    const parent = tempProject();
    writeFileSync(join(parent, 'CLAUDE.md'), 'PARENT INSTRUCTIONS\n');
    const cwd = join(parent, 'project');
    mkdirSync(cwd);
    writeFileSync(join(cwd, 'CLAUDE.md'), 'PROJECT INSTRUCTIONS\n');
    const api = await startFakeAnthropicApi({ model: [{ content: [{ type: 'text', text: 'ok' }] }] });
    try {
      await runHeadless([...SDK_ARGS, '--setting-sources', 'project,local'], { cwd, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: api.baseURL } });
      const sent = JSON.stringify(api.log[0]?.body);
      expect(sent).toContain('PROJECT INSTRUCTIONS');
      expect(sent).not.toContain('PARENT INSTRUCTIONS');
    } finally {
      await api.close();
    }
  });
});

describe('SKILL.md', () => {
  it('front matter gives name and description; without it the directory names the skill and the first line describes it', async () => {
    expect(await parseSkillFile('---\nname: a\ndescription: b\n---\n\nbody\n', 'dir')).toEqual({ name: 'a', description: 'b', body: 'body\n' });
    expect(await parseSkillFile('First line.\nMore.\n', 'dir')).toEqual({ name: 'dir', description: 'First line.', body: 'First line.\nMore.\n' });
  });
});
