/**
 * `turnloop snapshot` (src/cli/commands/snapshot.ts) under NODE_OPTIONS: its V8 flags would go into the code cache it
 * compiles, which the plain start and the snapshot builder then refuse, so the command refuses first and writes nothing.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './capture-io.ts';

describe('turnloop snapshot', () => {
  it('refuses to run under NODE_OPTIONS, saying why, before it compiles or writes anything', async () => {
    const run = await runCli(['snapshot'], { env: { NODE_OPTIONS: '--max-old-space-size=4096' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "turnloop snapshot: NODE_OPTIONS is set ('--max-old-space-size=4096'): the code cache and the snapshot must be made under the bundle's own V8 flags alone (Node refuses them under others); run it again without NODE_OPTIONS\n",
    );
    expect(run.stdout).toBe('');
  });
});
