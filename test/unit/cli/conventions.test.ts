/**
 * The CLI's conventions: --version, `turnloop help <command>`, "did you mean" for mistyped commands and flags
 * (exit 2), and colour only on a TTY without NO_COLOR.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commands } from '../../../src/cli/commands/index.ts';
import { closestName, editDistance } from '../../../src/errors/did-you-mean.ts';
import { styleFor } from '../../../src/cli/render/style.ts';
import { REPO_ROOT, runCli } from './capture-io.ts';

const version = (JSON.parse(readFileSync(`${REPO_ROOT}package.json`, 'utf8')) as { version: string }).version;

describe('CLI conventions', () => {
  it.each(['--version', '-v'])('%s prints the package version', async (flag) => {
    expect(await runCli([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('help <command> prints the same text as <command> --help, for every command', async () => {
    for (const { name } of commands) {
      const viaHelp = await runCli(['help', name]);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toMatch(new RegExp(`^Usage: turnloop ${name}\\b`));
      expect(viaHelp).toEqual(await runCli([name, '--help']));
    }
  });

  it('every listed command loads, under its own name', async () => {
    for (const entry of commands) expect((await entry.load()).name).toBe(entry.name);
  });

  it.each([
    [['simulat', 'x.json'], "unknown command 'simulat'. Did you mean 'simulate'?"],
    [['rplay'], "Did you mean 'replay'?"],
    [['help', 'exprot'], "Did you mean 'export'?"],
    [['check'], "Did you mean 'check-claude'?"],
    [['--verison'], "Did you mean '--version'?"],
    [['simulate', 'x.json', '--recrod', 'a.jsonl'], "Unknown option '--recrod'. Did you mean '--record'?"],
    [['replay', 'x.jsonl', '--confg', '{}'], "Did you mean '--config'?"],
    [['viz', '--otu', 'x.html'], "Did you mean '--out'?"],
    [['export', '--fromat', 'dot'], "Did you mean '--format'?"],
    [['export', '--format', 'mermiad'], "Did you mean 'mermaid'?"],
  ])('turnloop %j is bad input with a suggestion', async (argv, hint) => {
    const result = await runCli(argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(hint);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('suggests nothing for a name far from every command', async () => {
    const result = await runCli(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("turnloop: unknown command 'frobnicate'. Run 'turnloop --help' for the list.\n");
  });

  it('edit distance counts a swap of neighbours as one edit', () => {
    expect(editDistance('simulate', 'simulate')).toBe(0);
    expect(editDistance('smiulate', 'simulate')).toBe(1);
    expect(editDistance('simulat', 'simulate')).toBe(1);
    expect(editDistance('abc', 'xyz')).toBe(3);
    expect(closestName('zzzz', ['demo', 'run'])).toBeUndefined();
  });

  it('colours only a TTY, and never with NO_COLOR set (non-empty)', () => {
    const io = (isTTY: boolean, env: Record<string, string>) => ({ stdout: { write: () => true, isTTY }, stderr: { write: () => true }, env, cwd: '/' });
    expect(styleFor(io(true, {})).red('x')).not.toBe('x');
    expect(styleFor(io(false, {})).red('x')).toBe('x');
    expect(styleFor(io(true, { NO_COLOR: '1' })).red('x')).toBe('x');
    expect(styleFor(io(true, { NO_COLOR: '' })).red('x')).not.toBe('x');
  });
});
