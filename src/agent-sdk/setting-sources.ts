/**
 * `--setting-sources` (the SDK's `settingSources`): which places the session reads its instructions and skills
 * from, as the real executable names them. `user`: Claude Code's config directory (`claudeConfigDir`:
 * `CLAUDE_CONFIG_DIR`, else `~/.claude`); `project`: the working directory's `CLAUDE.md`, `.claude/CLAUDE.md` and `.claude/skills/`; `local`:
 * `CLAUDE.local.md`. Without the flag, all three are read, as the real executable does when the SDK sends none; an
 * empty value reads none. What turnloop reads from them is memory files and skills (skills.ts) and the permission
 * settings of each source's settings file (settings-permissions.ts). Pure.
 */
import { claudeConfigDir } from '../claude/config-dir.ts';
import { HeadlessArgsError } from './headless-args.ts';

export const SETTING_SOURCES = ['user', 'project', 'local'] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];

export function parseSettingSources(value: string | undefined): SettingSource[] {
  if (value === undefined) return [...SETTING_SOURCES];
  const names = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const name of names) {
    if (!(SETTING_SOURCES as readonly string[]).includes(name)) {
      throw new HeadlessArgsError(`--setting-sources: unknown source '${name}' (expected a comma-separated list of ${SETTING_SOURCES.join(', ')})`);
    }
  }
  return [...new Set(names)] as SettingSource[];
}

export interface SourcePlace {
  source: SettingSource;
  /** The directory a file of this source must stay inside (symlinks resolved). */
  root: string;
  /** Memory files, relative to `root`, in the order they are read. */
  memoryFiles: string[];
  /** The skills directory, relative to `root`, when the source has one. */
  skillsDir?: string;
}

/** Where each selected source's files are, in the order the real executable lists them (user first). */
export function sourcePlaces(sources: readonly SettingSource[], cwd: string, env: Record<string, string | undefined>): SourcePlace[] {
  const places: SourcePlace[] = [];
  const user = claudeConfigDir(env, cwd);
  if (sources.includes('user') && user) places.push({ source: 'user', root: user, memoryFiles: ['CLAUDE.md'], skillsDir: 'skills' });
  if (sources.includes('project')) places.push({ source: 'project', root: cwd, memoryFiles: ['CLAUDE.md', '.claude/CLAUDE.md'], skillsDir: '.claude/skills' });
  if (sources.includes('local')) places.push({ source: 'local', root: cwd, memoryFiles: ['CLAUDE.local.md'] });
  return places;
}
