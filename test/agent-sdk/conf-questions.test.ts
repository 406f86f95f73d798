/**
 * What a `canUseTool` question says of the call (issue #38), side by side (programs/conf-questions.ts): claude
 * 2.1.334's `displayName` and `description` (a Bash call's description or its command; a file tool's path, relative
 * to the working directory). Its `blockedPath` for a Bash command that writes a file turnloop does not send.
 */
import { describe, expect, it } from 'vitest';
import { ENGINES } from './harness/engines.ts';
import { bothRuns } from './harness/both-runs.ts';
import { confQuestions } from './programs/conf-questions.ts';

describe(confQuestions.name, () => {
  const run = bothRuns(confQuestions);

  it('displayName and description as claude words them, on both', () => {
    const question = (displayName: string, description: string) => ({ displayName, description });
    for (const engine of ENGINES) {
      expect(run(engine).error, engine).toBeUndefined();
      const asked = run(engine).observed.asked as Record<string, { displayName?: string; description?: string }>;
      const said = Object.fromEntries(Object.entries(asked).map(([id, q]) => [id, question(q.displayName ?? '', q.description ?? '')]));
      expect(said, engine).toEqual({
        toolu_bash: question('Bash', 'Make a file'),
        toolu_bash_bare: question('Bash', 'touch b.txt'),
        toolu_write: question('Write', 'w.txt'),
        toolu_edit: question('Edit', 'e.txt'),
      });
    }
    expect(run('turnloop').shapes).toEqual(run('claude').shapes);
  });

  it('what still differs: claude names the file a Bash command writes as blockedPath; turnloop names none', () => {
    const blocked = (engine: 'claude' | 'turnloop') => Object.values(run(engine).observed.asked as Record<string, { blockedPath?: string }>).map((q) => q.blockedPath ?? null);
    expect(blocked('claude')).toEqual(['<cwd>/a.txt', '<cwd>/b.txt', null, null]);
    expect(blocked('turnloop')).toEqual([null, null, null, null]);
  });
});
