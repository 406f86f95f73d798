/**
 * Where Claude Code keeps its config: sessions under `projects/`, the user's `CLAUDE.md` and `skills/`. One rule, as
 * claude 2.1.334 applies it (probed offline, docs/agent-sdk-conformance.md): `CLAUDE_CONFIG_DIR` whenever it is set,
 * resolved against the working directory as written (so an empty value is the working directory itself, and
 * blanks and a leading `~` are kept as they are: no trimming, no `~` expansion); else `.claude` in the home
 * directory. Pure: the caller gives the environment, the working directory and, for a process whose environment
 * has no `HOME`, the operating system's home.
 */
import { join, resolve } from 'node:path';

/**
 * @example
 * claudeConfigDir({ HOME: '/home/me' }, '/work'); // '/home/me/.claude'
 * claudeConfigDir({ CLAUDE_CONFIG_DIR: 'cfg', HOME: '/home/me' }, '/work'); // '/work/cfg'
 */
export function claudeConfigDir(env: Readonly<Record<string, string | undefined>>, cwd: string, osHome?: string): string | undefined {
  const configured = env.CLAUDE_CONFIG_DIR;
  if (configured !== undefined) return resolve(cwd, configured);
  const home = env.HOME || osHome;
  return home ? join(home, '.claude') : undefined;
}
