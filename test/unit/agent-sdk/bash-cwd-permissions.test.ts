/**
 * A `cd` kept by the Bash tool loosens no permission: acceptEdits still runs a filesystem command unasked only when
 * every path it names, taken from where the command will really run, lies inside the session's directory. Before
 * the check used the shell's directory, `rm link/x` after `cd sub` (sub/link a symlink out of the project) was
 * resolved from the project root, where `link` does not exist, and ran unasked.
 */
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSdkCanUseTool } from '../../../src/agent-sdk/permission-modes.ts';
import { createBashTool } from '../../../src/tools/builtin/bash.ts';
import type { ToolContext } from '../../../src/tools/define-tool.ts';

const context: ToolContext = { toolUseId: 'toolu_1', idempotencyKey: 'toolu_1', signal: new AbortController().signal, context: {} };

describe('permissions after a cd', () => {
  it('acceptEdits resolves a relative path from the shell directory and still confines it to the project', async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'bash-cwd-perm-')));
    const root = join(base, 'project');
    const outside = join(base, 'outside');
    mkdirSync(join(root, 'sub', 'deep'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, 'x'), 'keep me\n');
    symlinkSync(outside, join(root, 'sub', 'link'));
    const bash = createBashTool({ root, allowedDirectories: [outside] });
    const canUseTool = createSdkCanUseTool({ mode: () => 'acceptEdits', allowedTools: [], disallowedTools: [], onDenial: () => {}, cwd: root });
    const decide = async (command: string) => (await canUseTool(bash, { command }, { ...context, toolDecision: { behavior: 'allow' } })).behavior;

    expect(await decide('touch made.txt')).toBe('allow');
    await bash.call({ command: 'cd sub' }, context);
    expect(await decide('rm link/x')).toBe('deny');
    expect(await decide('touch deep/made.txt')).toBe('allow');
    // From sub, ../../outside/x names the directory outside; from the root it would have named a path above it.
    expect(await decide('rm ../../outside/x')).toBe('deny');
    // An allowed directory the shell moved into is still not the project: nothing there runs unasked.
    await bash.call({ command: `cd ${outside}` }, context);
    expect(bash.workingDirectory()).toBe(outside);
    expect(await decide('rm x')).toBe('deny');
  });
});
