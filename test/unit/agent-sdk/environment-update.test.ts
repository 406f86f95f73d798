/**
 * The main thread's Bash in an SDK session (sdk-tools.ts): a call that left the shell elsewhere ends with claude
 * 2.1.334's `# Environment update` reminder (side by side: test/agent-sdk/conf-bash-cwd.test.ts), and the session's
 * hook inputs take their `cwd` from where that shell is.
 */
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectSdkTools } from '../../../src/agent-sdk/sdk-tools.ts';
import type { ToolCallResult, ToolContext } from '../../../src/tools/define-tool.ts';

const context: ToolContext = { toolUseId: 'toolu_1', idempotencyKey: 'toolu_1', signal: new AbortController().signal, context: {} };

describe('the SDK session\'s Bash', () => {
  it('tells the model where the shell moved, only when it moved, and says where it is', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'sdk-env-update-')));
    mkdirSync(join(root, 'sub'));
    const selection = selectSdkTools({ root, disallowedTools: [] });
    const bash = selection.tools.find((tool) => tool.name === 'Bash')!;
    const run = async (command: string) => ((await bash.call({ command }, context)) as ToolCallResult).content;
    expect(selection.shellDirectory()).toBe(root);
    expect(await run('cd sub && pwd')).toBe(`${join(root, 'sub')}\n\n<system-reminder>\n# Environment update\n - Primary working directory: ${join(root, 'sub')} (was ${root})\n</system-reminder>`);
    expect(selection.shellDirectory()).toBe(join(root, 'sub'));
    expect(await run('cd .. && cd sub && pwd')).toBe(join(root, 'sub'));
    expect(await run('cd /; false')).toBe('Exit code 1');
    expect(await run('cd / && pwd')).toBe(`/\nShell cwd was reset to ${root}\n\n<system-reminder>\n# Environment update\n - Primary working directory: ${root} (was ${join(root, 'sub')})\n</system-reminder>`);
  });

  it('names a directory inside a project reached through a link by the link, a name starting with two dots included', async () => {
    const real = realpathSync(mkdtempSync(join(tmpdir(), 'sdk-env-update-real-')));
    mkdirSync(join(real, '..cache'));
    const link = join(realpathSync(mkdtempSync(join(tmpdir(), 'sdk-env-update-link-'))), 'project');
    symlinkSync(real, link);
    const selection = selectSdkTools({ root: link, disallowedTools: [] });
    const bash = selection.tools.find((tool) => tool.name === 'Bash')!;
    const content = ((await bash.call({ command: 'cd ..cache' }, context)) as ToolCallResult).content;
    expect(content).toContain(`Primary working directory: ${join(link, '..cache')} (was ${link})`);
    expect(selection.shellDirectory()).toBe(join(link, '..cache'));
  });
});
