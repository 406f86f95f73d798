/**
 * The README's commands must work as written: every `npx turnloop …` line of its `sh` blocks is run in-process
 * (through the CLI's `main`, from the repo root) and must exit 0.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.ts';
import { main } from '../../src/cli/main.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function readmeCommands(): string[][] {
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks
    .flatMap((block) => block.split('\n'))
    .map((line) => line.replace(/#.*$/, '').trim())
    .flatMap((line) => line.split('&&').map((part) => part.trim()))
    .filter((part) => part.startsWith('npx turnloop '))
    .map((part) => part.split(/\s+/).slice(2));
}

function captureIo(): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: { write: (text: string) => ((io.out += text), true), isTTY: false },
    stderr: { write: (text: string) => ((io.err += text), true) },
    env: {},
    cwd: root,
  };
  return io;
}

describe('README commands', () => {
  const commands = readmeCommands();

  it('has the demo and a runnable walkthrough', () => {
    expect(commands.map((c) => c[0])).toEqual(expect.arrayContaining(['demo', 'simulate', 'replay', 'viz', 'export']));
  });

  for (const argv of commands) {
    it(`turnloop ${argv.join(' ')}`, async () => {
      const io = captureIo();
      const previous = process.cwd();
      process.chdir(root);
      try {
        const code = await main(argv, io);
        expect(code, io.err).toBe(0);
        expect(io.out.length + io.err.length).toBeGreaterThan(0);
      } finally {
        process.chdir(previous);
      }
    }, 60_000);
  }
});
