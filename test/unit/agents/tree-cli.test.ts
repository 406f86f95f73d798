/**
 * Trees of runs on the command line and in what-if: `turnloop simulate --record` writes the subagents' logs beside
 * the parent's, `turnloop replay` re-drives the whole tree (no model call) and names a divergence by its path,
 * what-if on the root says which children still run as recorded, and `--child` targets one child run.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defineAgentTool } from '../../../src/agents/define-agent-tool.ts';
import { runQuery } from '../../../src/api/query.ts';
import { counterIds, virtualClock } from '../../../src/runtime/system-clock.ts';
import { childLogDir, childLogPath, TreeReplayDivergenceError } from '../../../src/replay/child-logs.ts';
import { loadSessionLog } from '../../../src/replay/parse-session-log.ts';
import { whatIfTree } from '../../../src/replay/what-if-tree.ts';
import { REPO_ROOT, runCli } from '../cli/capture-io.ts';
import { routedModelCaller, text, toolUses } from './agent-tree.ts';

const EXAMPLE = join(REPO_ROOT, 'examples/scenarios/two-subagents.json');
let dir = '';
let log = '';

/** The index of the parent event that answered `toolUseId`. */
const answeredAt = (file: string, toolUseId: string) =>
  loadSessionLog(file).events.find(({ event }) => event.type === 'tool_result' && event.toolUseId === toolUseId)!.index;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'turnloop-tree-cli-'));
  log = join(dir, 'run.jsonl');
  const simulated = await runCli(['simulate', EXAMPLE, '--record', log, '--check']);
  expect(simulated.stderr).not.toContain('unexpected outcome');
  expect(simulated.code).toBe(0);
});

describe('turnloop simulate --record / replay of a tree', () => {
  it('simulate --record writes the parent log and one log per subagent run beside it', () => {
    expect(readdirSync(childLogDir(log)).sort()).toEqual(['toolu_explore.jsonl', 'toolu_review.jsonl']);
  });

  it('viz embeds both subagent runs of the recorded example in the viewer page', async () => {
    const page = join(dir, 'view.html');
    const { code, stdout, stderr } = await runCli(['viz', log, '--out', page]);
    expect(code).toBe(0);
    expect(stdout + stderr).toContain('2 subagent runs');
    const html = readFileSync(page, 'utf8');
    for (const id of ['toolu_explore', 'toolu_review']) expect(html).toContain(id);
  });

  it('replay re-drives the parent and every child, hashes verified', async () => {
    const { code, stdout } = await runCli(['replay', log]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/child run toolu_explore \(agent:Explore\): replayed \d+ events, every state hash matches; terminal: completed/);
    expect(stdout).toMatch(/child run toolu_review \(agent:Review\): replayed \d+ events, every state hash matches; terminal: completed/);
    const json = JSON.parse((await runCli(['replay', log, '--json'])).stdout);
    expect(json.children.map((c: { toolUseId: string; querySource: string; terminal: { reason: string } }) => [c.toolUseId, c.querySource, c.terminal.reason])).toEqual([
      ['toolu_explore', 'agent:Explore', 'completed'],
      ['toolu_review', 'agent:Review', 'completed'],
    ]);
    const lines = readFileSync(childLogPath(log, ['toolu_review']), 'utf8').trimEnd().split('\n').length;
    expect(json.children[1].steps).toBe(lines);
  });

  it('replay of a tree whose child log was edited fails (exit 1) naming parent event, child run and child event', async () => {
    const copy = join(dir, 'edited.jsonl');
    writeFileSync(copy, readFileSync(log));
    const child = childLogPath(copy, ['toolu_review']);
    const original = readFileSync(childLogPath(log, ['toolu_review']), 'utf8');
    expect(original).toContain('constant-time comparison');
    mkdirSync(childLogDir(copy), { recursive: true });
    writeFileSync(childLogPath(copy, ['toolu_explore']), readFileSync(childLogPath(log, ['toolu_explore'])));
    writeFileSync(child, original.replace('constant-time comparison', 'constant time compare'));
    const { code, stderr } = await runCli(['replay', copy]);
    expect(code).toBe(1);
    expect(stderr).toContain(`parent event ${answeredAt(copy, 'toolu_review')} → child run toolu_review → child event`);
  });

  it('what-if on a tree whose child log was edited fails (exit 1) naming the path to the child, as replay does', async () => {
    const copy = join(dir, 'edited-what-if.jsonl');
    writeFileSync(copy, readFileSync(log));
    mkdirSync(childLogDir(copy), { recursive: true });
    writeFileSync(childLogPath(copy, ['toolu_explore']), readFileSync(childLogPath(log, ['toolu_explore'])));
    const original = readFileSync(childLogPath(log, ['toolu_review']), 'utf8');
    writeFileSync(childLogPath(copy, ['toolu_review']), original.replace('constant-time comparison', 'constant time compare'));
    const { code, stderr } = await runCli(['replay', copy, '--config', '{"limits":{"maxModelCalls":1}}']);
    expect(code).toBe(1);
    expect(stderr).toContain(`parent event ${answeredAt(copy, 'toolu_review')} → child run toolu_review → child event`);
  });

  it('sign signs every subagent log too, and replay --verify-key checks each: a swapped child log is exit 2', async () => {
    const treeDir = mkdtempSync(join(tmpdir(), 'turnloop-tree-sign-'));
    const copy = join(treeDir, 'run.jsonl');
    cpSync(log, copy);
    cpSync(childLogDir(log), childLogDir(copy), { recursive: true });
    const key = join(treeDir, 'secret');
    writeFileSync(key, 'a secret of more than sixteen bytes');
    const signed = await runCli(['sign', copy, '--key', key]);
    expect(signed.code).toBe(0);
    for (const id of ['toolu_explore', 'toolu_review']) expect(readFileSync(`${childLogPath(copy, [id])}.sig`, 'utf8')).toContain('hmac');
    const ok = await runCli(['replay', copy, '--verify-key', key]);
    expect([ok.code, ok.stderr]).toEqual([0, expect.stringContaining('and 2 subagent log(s)')]);

    // Another run's valid log in the child's place: its own hash chain holds, but its final answer is not the
    // result the parent recorded for toolu_review (issue 29: replay checks it), and its signature does not match.
    const review = childLogPath(copy, ['toolu_review']);
    writeFileSync(review, readFileSync(childLogPath(copy, ['toolu_explore'])));
    const unverified = await runCli(['replay', copy]);
    expect([unverified.code, unverified.stderr]).toEqual([2, expect.stringContaining("final answer is not the result its parent recorded for toolu_review")]);
    const swapped = await runCli(['replay', copy, '--verify-key', key]);
    expect(swapped.code).toBe(2);
    expect(swapped.stderr).toContain('toolu_review.jsonl');
    rmSync(`${review}.sig`);
    const unsigned = await runCli(['replay', copy, '--verify-key', key]);
    expect([unsigned.code, unsigned.stderr]).toEqual([2, expect.stringContaining('no signature file next to the log')]);
  });

  it('what-if on the root: children started before the divergence are re-driven from their logs', async () => {
    const { code, stdout } = await runCli(['replay', log, '--config', '{"limits":{"maxModelCalls":1}}', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.target).toEqual([]);
    expect(report.report.newTerminal).toBe('max_turns');
    expect(report.children.map((c: { toolUseId: string; status: string; terminal: string }) => [c.toolUseId, c.status, c.terminal])).toEqual([
      ['toolu_explore', 'replayed', 'completed'],
      ['toolu_review', 'replayed', 'completed'],
    ]);
    expect(report.parentAffected).toBeNull();
  });

  it('what-if on the root that diverges by the step that starts the calls: the children are not reached', async () => {
    const { code, stdout } = await runCli(['replay', log, '--config', '{"features":{"streamingToolExecution":false}}']);
    expect(code).toBe(0);
    expect(stdout).toContain('child run toolu_explore (started at event');
    expect(stdout.match(/not reached/g)).toHaveLength(2);
  });

  it('what-if on a child (--child): a divergence may change its answer, named by the parent event that took it', async () => {
    const changed = await runCli(['replay', log, '--child', 'toolu_review', '--params', '{"maxTurns":1}', '--json']);
    expect(changed.code).toBe(0);
    const report = JSON.parse(changed.stdout);
    expect(report.target).toEqual(['toolu_review']);
    expect(report.report.newTerminal).toBe('max_turns');
    expect(report.parentAffected).toEqual({ toolUseId: 'toolu_review', parentEvent: answeredAt(log, 'toolu_review') });

    const same = await runCli(['replay', log, '--child', 'toolu_review', '--params', '{"maxTurns":5}']);
    expect(same.stdout).toContain('no divergence over');
    expect(same.stdout).toContain('its answer to the parent is unchanged');
  });

  it('--child picks the child run for --at and for a plain replay', async () => {
    const at = await runCli(['replay', log, '--child', 'toolu_explore', '--at', '0']);
    expect(at.code).toBe(0);
    expect(at.stdout).toContain('child run toolu_explore (agent:Explore)');
    expect(at.stdout).toContain('(initial state)');
    const replayed = await runCli(['replay', log, '--child', 'toolu_explore', '--json']);
    expect(JSON.parse(replayed.stdout)).toMatchObject({ terminal: { reason: 'completed' }, children: [] });
  });

  it('a --child that is not in the tree, or malformed, is bad input (exit 2) naming what there is', async () => {
    const missing = await runCli(['replay', log, '--child', 'toolu_nope', '--at', '1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no child run toolu_nope');
    expect(missing.stderr).toContain('expected one of toolu_explore, toolu_review');
    const malformed = await runCli(['replay', log, '--child', 'toolu_explore//x']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('--child expects tool_use ids joined by /');
  });
});

describe('whatIfTree on a nested tree', () => {
  it('re-drives grandchildren too, and targets a grandchild by its path', async () => {
    const nestedDir = mkdtempSync(join(tmpdir(), 'turnloop-tree-nested-'));
    const root = join(nestedDir, 'run.jsonl');
    const review = defineAgentTool({ name: 'Review', description: 'Reviews' });
    const explore = defineAgentTool({ name: 'Explore', description: 'Explores', tools: [review] });
    const callModel = routedModelCaller({
      sdk: [toolUses({ id: 'toolu_a', name: 'Explore', prompt: 'look' }), text('done')],
      'agent:Explore': [toolUses({ id: 'toolu_c', name: 'Review', prompt: 'check' }), text('explored')],
      'agent:Review': [text('reviewed')],
    });
    await runQuery({ prompt: 'go', tools: [explore], deps: { callModel, clock: virtualClock(0), newId: counterIds('n') }, record: root });
    const calls = callModel.total();

    const onRoot = whatIfTree(root, { config: { limits: { maxModelCalls: 1 } } });
    expect(onRoot.children).toMatchObject([{ toolUseId: 'toolu_a', status: 'replayed', terminal: 'completed', children: [{ toolUseId: 'toolu_c', status: 'replayed', terminal: 'completed' }] }]);

    const onGrandchild = whatIfTree(root, { config: { limits: { maxModelCalls: 1 } } }, { target: ['toolu_a', 'toolu_c'] });
    expect(onGrandchild.report.divergence).toBeNull();
    expect(onGrandchild.parentAffected).toBeNull();
    const onChild = whatIfTree(root, { params: { maxTurns: 1 } }, { target: ['toolu_a'] });
    expect(onChild.parentAffected).toEqual({ toolUseId: 'toolu_a', parentEvent: answeredAt(root, 'toolu_a') });
    expect(onChild.children).toMatchObject([{ toolUseId: 'toolu_c', status: 'replayed' }]);
    expect(callModel.total()).toBe(calls);

    // A run on the way to the target that no longer replays is named by its path, as replayTree names it.
    const exploreLog = childLogPath(root, ['toolu_a']);
    writeFileSync(exploreLog, readFileSync(exploreLog, 'utf8').replace('explored', 'explorex'));
    const onTheWay = (() => {
      try {
        whatIfTree(root, { params: { maxTurns: 1 } }, { target: ['toolu_a', 'toolu_c'] });
      } catch (error) {
        return error;
      }
    })();
    expect(onTheWay).toBeInstanceOf(TreeReplayDivergenceError);
    expect((onTheWay as TreeReplayDivergenceError).path).toEqual([{ parentEvent: answeredAt(root, 'toolu_a'), toolUseId: 'toolu_a' }]);
  });
});
