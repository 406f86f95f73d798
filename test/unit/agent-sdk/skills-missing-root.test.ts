/** A setting source whose directory does not exist (no ~/.claude yet, a fresh machine) is simply empty, as on claude. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSources } from '../../../src/agent-sdk/skills.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadSources with a missing source directory', () => {
  it('reads nothing and warns about nothing when the user config dir and the project have no .claude', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tl-home-'));
    const cwd = mkdtempSync(join(tmpdir(), 'tl-cwd-'));
    dirs.push(home, cwd);
    const warnings: string[] = [];
    const loaded = await loadSources(['user', 'project', 'local'], cwd, { HOME: home, CLAUDE_CONFIG_DIR: join(home, 'no-such-dir') }, (text) => warnings.push(text));
    expect(warnings).toEqual([]);
    expect(loaded).toEqual({ skills: [], memory: [] });
  });
});
