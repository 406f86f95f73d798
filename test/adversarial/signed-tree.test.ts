/**
 * Signed subagent trees are tamper-evident as a tree (issue 29, item 3): `turnloop sign` signs each log together
 * with the paths and digests of the logs below it, so swapping two child logs (with their own valid signatures),
 * deleting one, or splicing one in from another run fails `replay --verify-key` (exit 2), naming the child.
 */
import { copyFileSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../unit/cli/capture-io.ts';

const TWO_AGENTS = resolve(import.meta.dirname, '../../examples/scenarios/two-subagents.json');
const root = mkdtempSync(join(tmpdir(), 'turnloop-signed-tree-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dir = '';

async function signedTree(at: string): Promise<string[]> {
  const record = await runCli(['simulate', TWO_AGENTS, '--record', 'run.jsonl'], { cwd: at });
  expect(record.code).toBe(0);
  writeFileSync(join(at, 'hmac.key'), 'a shared secret of more than sixteen bytes\n');
  expect((await runCli(['sign', 'run.jsonl', '--key', 'hmac.key'], { cwd: at })).code).toBe(0);
  return readdirSync(join(at, 'run.agents')).filter((name) => name.endsWith('.jsonl')).sort();
}

const verify = (at: string) => runCli(['replay', 'run.jsonl', '--verify-key', 'hmac.key'], { cwd: at });

beforeEach(() => {
  dir = mkdtempSync(join(root, 'tree-'));
});

describe('a signed tree of subagent runs', () => {
  it('verifies as signed, naming its subagent logs', async () => {
    const children = await signedTree(dir);
    expect(children.length).toBeGreaterThanOrEqual(2);
    const result = await verify(dir);
    expect(result.stderr).toMatch(new RegExp(`signature ok: hmac-sha256 over \\d+ bytes, and ${children.length} subagent log`));
    expect(result.code).toBe(0);
  });

  it('two child logs swapped, each with its own signature: exit 2, the swapped child named', async () => {
    const [a, b] = await signedTree(dir);
    const agents = join(dir, 'run.agents');
    for (const suffix of ['', '.sig']) {
      renameSync(join(agents, `${a}${suffix}`), join(agents, `tmp${suffix}`));
      renameSync(join(agents, `${b}${suffix}`), join(agents, `${a}${suffix}`));
      renameSync(join(agents, `tmp${suffix}`), join(agents, `${b}${suffix}`));
    }
    const result = await verify(dir);
    expect(result.stderr).toMatch(new RegExp(`the subagent log run\\.agents/${a!.replace('.', '\\.')} is not the one signed \\(swapped or changed\\)`));
    expect(result.code).toBe(2);
  });

  it('a child log deleted (with its signature): exit 2, the missing child named', async () => {
    const [a] = await signedTree(dir);
    rmSync(join(dir, 'run.agents', a!));
    rmSync(join(dir, 'run.agents', `${a}.sig`));
    const result = await verify(dir);
    expect(result.stderr).toContain(`the subagent log run.agents/${a} it covers is missing`);
    expect(result.code).toBe(2);
  });

  it('a child log spliced in from another signed run (same key, valid own signature): exit 2', async () => {
    const [a] = await signedTree(dir);
    const other = mkdtempSync(join(root, 'other-'));
    await signedTree(other);
    for (const suffix of ['', '.sig']) copyFileSync(join(other, 'run.agents', `${a}${suffix}`), join(dir, 'run.agents', `${a}${suffix}`));
    const result = await verify(dir);
    expect(result.stderr).toContain(`the subagent log run.agents/${a} is not the one signed`);
    expect(result.code).toBe(2);
  });

  it('without a signature, two child logs swapped: replay sees each final answer differ from what the parent recorded (exit 2)', async () => {
    const [a, b] = await signedTree(dir);
    const agents = join(dir, 'run.agents');
    renameSync(join(agents, a!), join(agents, 'tmp'));
    renameSync(join(agents, b!), join(agents, a!));
    renameSync(join(agents, 'tmp'), join(agents, b!));
    const result = await runCli(['replay', 'run.jsonl'], { cwd: dir });
    expect(result.stderr).toMatch(new RegExp(`run\\.agents/${a!.replace('.', '\\.')}: this child run's final answer is not the result its parent recorded for ${a!.replace('.jsonl', '')} \\(parent event \\d+\\)`));
    expect(result.code).toBe(2);
  });

  it('an extra child log added beside the signed ones: exit 2', async () => {
    const [a] = await signedTree(dir);
    for (const suffix of ['', '.sig']) copyFileSync(join(dir, 'run.agents', `${a}${suffix}`), join(dir, 'run.agents', `toolu_extra.jsonl${suffix}`));
    const result = await verify(dir);
    expect(result.stderr).toContain('the subagent log run.agents/toolu_extra.jsonl was not part of the signed run');
    expect(result.code).toBe(2);
  });
});
