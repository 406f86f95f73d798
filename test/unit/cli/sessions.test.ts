/**
 * `turnloop sessions`: the Claude Code sessions under a (temporary) CLAUDE_CONFIG_DIR, newest first, with the lines
 * that open each, and turnloop's own logs beside them. The printed viz and check-claude lines are run as printed.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.ts';
import { main } from '../../../src/cli/main.ts';
import { claudeConfigDir } from '../../../src/claude/config-dir.ts';
import { projectFolderName, unlessGone } from '../../../src/claude/local-sessions.ts';
import { promptText } from '../../../src/claude/prompt-text.ts';
import { formatSessionLog } from '../../../src/viz/session.ts';
import { resolveConfig } from '../../../src/config/config.ts';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/claude-code-transcripts');

function fakeIo(cwd: string, env: Record<string, string>): CliIo & { out: string; err: string } {
  const io = { out: '', err: '', stdout: { write: (t: string) => (io.out += t) }, stderr: { write: (t: string) => (io.err += t) }, env, cwd };
  return io;
}

/** A config dir with two projects: short.jsonl (oldest) and subagent.jsonl in one, a 2.x session with subagents in the other. */
function configDir(): { dir: string; work: string } {
  const dir = mkdtempSync(join(tmpdir(), 'turnloop-claude-config-'));
  const work = mkdtempSync(join(tmpdir(), 'turnloop-work dir-'));
  const app = join(dir, 'projects', projectFolderName(work));
  const other = join(dir, 'projects', '-home-someone-other');
  mkdirSync(app, { recursive: true });
  mkdirSync(other, { recursive: true });
  cpSync(join(FIXTURES, 'short.jsonl'), join(app, '11111111-short.jsonl'));
  cpSync(join(FIXTURES, 'subagent.jsonl'), join(app, '22222222-subagent.jsonl'));
  const id = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
  cpSync(join(FIXTURES, `${id}.jsonl`), join(other, `${id}.jsonl`));
  cpSync(join(FIXTURES, id), join(other, id), { recursive: true });
  return { dir, work };
}

describe('turnloop sessions', () => {
  it('lists every project newest first (by the last timestamp recorded), with date, first prompt, model calls and the two lines', async () => {
    const { dir, work } = configDir();
    const io = fakeIo(work, { CLAUDE_CONFIG_DIR: dir });
    expect(await main(['sessions'], io)).toBe(0);
    const heads = io.out.split('\n').filter((l) => /^\d{4}-\d\d-\d\d \d\d:\d\d UTC/.test(l));
    expect(heads).toEqual([
      '2026-02-12 15:05 UTC  /home/USER/projects/spotter-worktrees/spotter-4te  217 model calls, 2 subagent transcripts',
      '2026-02-10 22:03 UTC  /home/marco/projects/spotter  12 model calls',
      '2026-02-10 21:16 UTC  /home/marco/projects/spotter  1 model call',
    ]);
    expect(io.out).toContain('  "mix phx.server doesnt seem to start"');
    // A slash command reads as typed, not as Claude Code's markup.
    expect(io.out).toContain('  "/handgemacht:create-beads websearch to learn how to fastest setup credo');
    expect(io.out).toContain(`No turnloop session logs in ${join(work, '.turnloop/sessions')}.`);
  });

  it('prints lines that work as printed: viz opens the session, check-claude checks it', async () => {
    const { dir, work } = configDir();
    const io = fakeIo(work, { CLAUDE_CONFIG_DIR: dir });
    expect(await main(['sessions', '--project', '.'], io)).toBe(0);
    const commands = io.out.split('\n').filter((l) => l.startsWith('  turnloop '));
    expect(commands).toHaveLength(4);
    const viz = commands.find((c) => c.includes('viz') && c.includes('11111111-short'))!;
    const check = commands.find((c) => c.includes('check-claude') && c.includes('11111111-short'))!;
    const argv = (line: string) => line.trim().split(' ').slice(1);
    const vizIo = fakeIo(work, {});
    expect(await main(argv(viz), vizIo)).toBe(0);
    expect(readFileSync(join(work, '11111111-short.html'), 'utf8')).toContain('<title>11111111-short.jsonl · turnloop viewer</title>');
    const checkIo = fakeIo(work, {});
    expect(await main(argv(check), checkIo)).toBe(0);
    expect(checkIo.out).toContain('all 1 runs reproduce');
  });

  it('--project takes the working directory or the folder name, and lists turnloop logs of that directory', async () => {
    const { dir, work } = configDir();
    const logs = join(work, '.turnloop', 'sessions');
    mkdirSync(logs, { recursive: true });
    const prompt = { type: 'user', uuid: 'u1', message: { role: 'user', content: 'list the files' } };
    const events = [{ type: 'model_done', stopReason: 'end_turn' }, { type: 'model_done', stopReason: 'end_turn' }];
    writeFileSync(join(logs, 'run1.jsonl'), formatSessionLog({ config: resolveConfig({ sessionId: 'run1' }), params: { messages: [prompt] } as never, events: events as never }));
    const byPath = fakeIo(tmpdir(), { CLAUDE_CONFIG_DIR: dir });
    expect(await main(['sessions', '--project', work], byPath), byPath.err).toBe(0);
    expect(byPath.out).toContain('newest first (2):');
    expect(byPath.out).not.toContain('spotter-4te');
    expect(byPath.out).toContain(`turnloop session logs in ${logs}, newest first (1):`);
    expect(byPath.out).toMatch(/ 2 model calls\n {2}"list the files"\n {2}turnloop viz '[^']+run1\.jsonl' --out run1\.html\n {2}turnloop replay '[^']+run1\.jsonl'/);

    const byName = fakeIo(work, { CLAUDE_CONFIG_DIR: dir });
    expect(await main(['sessions', '--project=-home-someone-other', '--json'], byName)).toBe(0);
    const json = JSON.parse(byName.out) as { claude: Array<{ firstPrompt: string; modelCalls: number; subagents: number }> };
    expect(json.claude.map((s) => [s.modelCalls, s.subagents])).toEqual([[217, 2]]);
  });

  it('says where it looked when there is nothing, honours --limit, and refuses a bad one', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'turnloop-claude-config-'));
    const none = fakeIo(empty, { CLAUDE_CONFIG_DIR: empty });
    expect(await main(['sessions'], none)).toBe(0);
    expect(none.out).toContain(`No Claude Code sessions under ${join(empty, 'projects')}.`);
    const { dir, work } = configDir();
    const one = fakeIo(work, { CLAUDE_CONFIG_DIR: dir });
    expect(await main(['sessions', '--limit', '1'], one)).toBe(0);
    expect(one.out).toContain('… 2 more (--limit 0 lists all)');
    const bad = fakeIo(work, { CLAUDE_CONFIG_DIR: dir });
    expect(await main(['sessions', '--limit', 'x'], bad)).toBe(2);
    expect(bad.err).toContain("--limit expects");
  });

  it('finds the config dir from CLAUDE_CONFIG_DIR, else HOME/.claude; names project folders as Claude Code does', () => {
    expect(claudeConfigDir({ CLAUDE_CONFIG_DIR: '/x/cfg', HOME: '/home/a' }, '/work')).toBe('/x/cfg');
    expect(claudeConfigDir({ HOME: '/home/a' }, '/work')).toBe('/home/a/.claude');
    expect(projectFolderName('/home/marco/projects/spotter')).toBe('-home-marco-projects-spotter');
    expect(projectFolderName('/tmp/a b.c')).toBe('-tmp-a-b-c');
    expect(promptText([{ type: 'text', text: '<local-command-stdout>x</local-command-stdout>' }])).toBeNull();
    expect(promptText('<command-message>x</command-message>\n<command-name>/clear</command-name>\n<command-args></command-args>')).toBe('/clear');
  });
});

describe('a session file that goes away while it is listed', () => {
  it('is skipped (ENOENT), and any other error still fails the listing', () => {
    const gone = () => {
      throw Object.assign(new Error('gone'), { code: 'ENOENT' });
    };
    expect(unlessGone(gone)).toBeUndefined();
    expect(() => unlessGone(() => { throw Object.assign(new Error('denied'), { code: 'EACCES' }); })).toThrow('denied');
    expect(unlessGone(() => 3)).toBe(3);
  });
});
