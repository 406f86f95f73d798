/**
 * The scenario `agents` section: every invocation of a scripted agent runs a real child loop whose model calls go
 * through the real adapter and SDK to the loopback fake API, answered from that invocation's own list (header
 * `x-turnloop-agent-run`), so concurrent children give the same run whatever order their requests arrive in.
 */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_RUN_HEADER } from '../../../src/config/wire.ts';
import type { FakeApi } from '../../../src/fake-api/index.ts';
import type { Message } from '../../../src/messages/types.ts';
import { childLogDir, replayTree } from '../../../src/replay/child-logs.ts';
import { outcomeMismatches } from '../../../src/scenario/check-outcome.ts';
import { loadScenario, parseScenario, ScenarioFileError } from '../../../src/scenario/load-scenario.ts';
import type { Scenario, ScenarioInput } from '../../../src/scenario/scenario-schema.ts';
import { simulateScenario, type SimulationResult } from '../../../src/scenario/simulate.ts';
import { REPO_ROOT } from '../cli/capture-io.ts';

const EXAMPLE = join(REPO_ROOT, 'examples/scenarios/two-subagents.json');
const example = () => loadScenario(EXAMPLE, REPO_ROOT);

const reply = (text: string) => ({ content: [{ type: 'text', text }] });
const call = (id: string, name: string, prompt: string) => ({ type: 'tool_use', id, name, input: { prompt } });

/** A copy of the example whose child runs' first answers are delayed (ms), per agent. */
function withDelays(delays: Record<string, number>): Scenario {
  const scenario = structuredClone(example());
  for (const agent of scenario.agents) {
    const first = agent.runs[0]!.model[0]!;
    first.delayMs = delays[agent.name] ?? 0;
  }
  return scenario;
}

function toolResultText(messages: readonly Message[], id: string): { text: string; isError: boolean } {
  for (const m of messages) {
    if (m.type !== 'user' || !Array.isArray(m.message.content)) continue;
    for (const b of m.message.content) {
      if (b.type === 'tool_result' && b.tool_use_id === id) {
        return { text: typeof b.content === 'string' ? b.content : JSON.stringify(b.content), isError: b.is_error === true };
      }
    }
  }
  throw new Error(`no tool_result for ${id}`);
}

/** Everything a recorded tree holds but the wall-clock creation time (and the hashes, which cover it). */
function treeWithoutWallClock(log: string): Record<string, unknown[]> {
  const strip = (file: string) =>
    readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => {
        const { createdAt: _c, initialHash: _i, hash: _h, ...rest } = JSON.parse(line) as Record<string, unknown>;
        return rest;
      });
  const out: Record<string, unknown[]> = { root: strip(log) };
  for (const file of readdirSync(childLogDir(log)).sort()) out[file] = strip(join(childLogDir(log), file));
  return out;
}

const simulate = (scenario: Scenario, options: Parameters<typeof simulateScenario>[1] = {}) => simulateScenario(scenario, options);

describe('scenario agents', () => {
  it('runs the two subagents of the example at once, each answered from its own script, and reaches every expect', async () => {
    let api: FakeApi | undefined;
    // Both children's first answers wait 150 ms: both first requests must be in before either child goes on.
    const result = await simulate(withDelays({ Explore: 150, Review: 150 }), { onFakeApi: (a) => (api = a) });
    const scenario = example();
    expect(outcomeMismatches(scenario.expect!, result, scenario.agents)).toEqual([]);
    const childRequests = api!.log.filter((entry) => entry.agentRun !== undefined).map((entry) => entry.agentRun);
    expect(childRequests.slice(0, 2).sort()).toEqual(['toolu_explore', 'toolu_review']);
    expect(childRequests.slice(2).sort()).toEqual(['toolu_explore', 'toolu_review']);
    // The header travels on the wire: the adapter sent it, the fake routed by it.
    expect(api!.log.filter((entry) => entry.headers[AGENT_RUN_HEADER] !== undefined)).toHaveLength(4);
    expect(result.requests).toHaveLength(2);
    expect(result.agentRuns.map((r) => [r.agent, r.run, r.toolUseId, r.terminal?.reason, r.modelCalls, r.toolCalls.length, r.requests.length])).toEqual([
      ['Explore', 0, 'toolu_explore', 'completed', 2, 1, 2],
      ['Review', 0, 'toolu_review', 'completed', 2, 1, 2],
    ]);
    expect(toolResultText(result.emitted, 'toolu_explore')).toEqual({ text: expect.stringContaining('src/auth/session.ts line 41'), isError: false });
    expect(toolResultText(result.emitted, 'toolu_review')).toEqual({ text: expect.stringContaining('constant-time'), isError: false });
    // Each child got its own system prompt and the task the parent gave it.
    const firstOf = (name: string) => result.agentRuns.find((r) => r.agent === name)!.requests[0] as { system: Array<{ text: string }>; messages: Array<{ content: unknown }> };
    expect(firstOf('Explore').system.map((b) => b.text)).toContain('You explore code. Answer with file paths and line numbers.');
    expect(JSON.stringify(firstOf('Review').messages[0]!.content)).toContain('Review src/auth/session.ts for security problems.');
  });

  it('gives the same run and the same recorded tree whichever child finishes first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-scenario-agents-'));
    const runs: Array<{ result: SimulationResult; tree: Record<string, unknown[]>; order: string[] }> = [];
    for (const [i, delays] of ([{ Explore: 200 }, { Review: 200 }] as Array<Record<string, number>>).entries()) {
      const log = join(dir, `run-${i}.jsonl`);
      let api: FakeApi | undefined;
      const result = await simulate(withDelays(delays), { record: log, onFakeApi: (a) => (api = a) });
      const order = api!.log.filter((entry) => entry.agentRun !== undefined).map((entry) => entry.agentRun!);
      runs.push({ result, tree: treeWithoutWallClock(log), order });
    }
    // The children really finished in opposite orders: the slow one's last request came last.
    expect(runs[0]!.order.at(-1)).toBe('toolu_explore');
    expect(runs[1]!.order.at(-1)).toBe('toolu_review');
    expect(runs[1]!.result).toEqual(runs[0]!.result);
    expect(runs[1]!.tree).toEqual(runs[0]!.tree);
  });

  it('answers two concurrent calls of one agent from runs[0] and runs[1], in the order of the tool_use blocks', async () => {
    const scenario = parseScenario(
      {
        params: { prompt: 'Look twice' },
        agents: [{ name: 'Explore', runs: [{ model: [{ ...reply('first answer'), delayMs: 150 }] }, { model: [reply('second answer')] }] }],
        model: [{ content: [call('toolu_1', 'Explore', 'one'), call('toolu_2', 'Explore', 'two')] }, reply('done')],
      } satisfies ScenarioInput,
      'inline',
    );
    const result = await simulate(scenario);
    expect(toolResultText(result.emitted, 'toolu_1').text).toBe('first answer');
    expect(toolResultText(result.emitted, 'toolu_2').text).toBe('second answer');
    expect(result.agentRuns.map((r) => [r.toolUseId, r.run])).toEqual([
      ['toolu_1', 0],
      ['toolu_2', 1],
    ]);
  });

  it('scripts a run by its tool_use id when it names one', async () => {
    const scenario = parseScenario(
      {
        params: { prompt: 'Look twice' },
        agents: [{ name: 'Explore', runs: [{ toolUseId: 'toolu_2', model: [reply('for two')] }, { model: [reply('for the other')] }] }],
        model: [{ content: [call('toolu_1', 'Explore', 'one'), call('toolu_2', 'Explore', 'two')] }, reply('done')],
      } satisfies ScenarioInput,
      'inline',
    );
    const result = await simulate(scenario);
    expect(toolResultText(result.emitted, 'toolu_1').text).toBe('for the other');
    expect(toolResultText(result.emitted, 'toolu_2').text).toBe('for two');
    expect(outcomeMismatches({ terminal: 'completed' }, result, scenario.agents)).toEqual([]);
  });

  it('an invocation beyond the scripted runs gets an exhausted script, and the check says so', async () => {
    const scenario = parseScenario(
      {
        params: { prompt: 'Look twice' },
        agents: [{ name: 'Explore', runs: [{ model: [reply('the only answer')] }] }],
        model: [{ content: [call('toolu_1', 'Explore', 'one'), call('toolu_2', 'Explore', 'two')] }, reply('done')],
      } satisfies ScenarioInput,
      'inline',
    );
    const result = await simulate(scenario);
    const second = result.agentRuns[1]!;
    expect([second.run, second.scriptExhausted, second.terminal?.reason]).toEqual([null, true, 'completed']);
    expect(toolResultText(result.emitted, 'toolu_2')).toEqual({ text: expect.stringMatching(/The Explore agent did not complete its task: it stopped on an API error: .*exhausted/), isError: true });
    // The root's own script did not run out.
    expect(result.scriptExhausted).toBe(false);
    expect(outcomeMismatches({ terminal: 'completed' }, result, scenario.agents)).toEqual(['agentRuns: expected 1, got 2']);
  });

  it("checks each scripted run's expect, and a run that was never invoked", async () => {
    const scenario = parseScenario(
      {
        params: { prompt: 'Look' },
        agents: [
          {
            name: 'Explore',
            runs: [
              { model: [reply('found')], expect: { terminal: 'completed', modelCalls: 2 } },
              { model: [reply('never asked')], expect: { terminal: 'completed' } },
            ],
          },
        ],
        model: [{ content: [call('toolu_1', 'Explore', 'one')] }, reply('done')],
      } satisfies ScenarioInput,
      'inline',
    );
    const result = await simulate(scenario);
    expect(outcomeMismatches({ terminal: 'completed', agentRuns: 1 }, result, scenario.agents)).toEqual([
      'agent Explore run 1: modelCalls: expected 2, got 1',
      'agent Explore run 2: expected to run, never invoked',
    ]);
  });

  it('a scripted abort of the parent during tools reaches the running children through their abort path', async () => {
    const slow = (t: string) => ({ ...reply(t), delayMs: 300 });
    const scenario = parseScenario(
      {
        params: { prompt: 'Look twice' },
        agents: [{ name: 'Explore', runs: [{ model: [slow('one')] }, { model: [slow('two')] }] }],
        model: [{ content: [call('toolu_1', 'Explore', 'one'), call('toolu_2', 'Explore', 'two')] }],
        abort: { during: 'tools', atModelCall: 1 },
      } satisfies ScenarioInput,
      'inline',
    );
    const result = await simulate(scenario);
    expect(result.terminal.reason).toBe('aborted_tools');
    for (const id of ['toolu_1', 'toolu_2']) expect(toolResultText(result.emitted, id)).toEqual({ text: expect.stringContaining('interrupted'), isError: true });
    expect(result.agentRuns.map((r) => r.terminal?.reason)).toEqual(['aborted_streaming', 'aborted_streaming']);
    expect(outcomeMismatches({ terminal: 'aborted_tools', modelCalls: 1 }, result, scenario.agents)).toEqual([]);
  });

  it('refuses an agent named like a tool or another agent, naming the place', () => {
    const bad = { params: { prompt: 'x' }, tools: [{ name: 'Explore' }], agents: [{ name: 'Explore', runs: [] }] };
    expect(() => parseScenario(bad, 'bad.json')).toThrow(ScenarioFileError);
    expect(() => parseScenario(bad, 'bad.json')).toThrow(/agents\[0\]\.name|agents\.0\.name/);
    expect(() => parseScenario({ params: { prompt: 'x' }, agents: [{ name: 'A', runs: [{ model: [], extra: 1 }] }] }, 'bad.json')).toThrow(/extra/);
  });

  it('refuses two runs naming the same tool_use id (of one agent or of two), naming the second', () => {
    const run = { toolUseId: 'toolu_1', model: [] };
    const oneAgent = { params: { prompt: 'x' }, agents: [{ name: 'A', runs: [run, run] }] };
    expect(() => parseScenario(oneAgent, 'bad.json')).toThrow(/agents\[0\]\.runs\[1\]\.toolUseId[^]*"toolu_1" twice/);
    const twoAgents = { params: { prompt: 'x' }, agents: [{ name: 'A', runs: [run] }, { name: 'B', runs: [{ model: [] }, run] }] };
    expect(() => parseScenario(twoAgents, 'bad.json')).toThrow(/agents\[1\]\.runs\[1\]\.toolUseId/);
    expect(() => parseScenario({ params: { prompt: 'x' }, agents: [{ name: 'A', runs: [run, { ...run, toolUseId: 'toolu_2' }] }] }, 'ok.json')).not.toThrow();
  });

  it('records the children beside the parent; replayTree re-drives the tree with zero model calls', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-scenario-agents-'));
    const log = join(dir, 'run.jsonl');
    let api: FakeApi | undefined;
    const live = await simulate(example(), { record: log, onFakeApi: (a) => (api = a) });
    const requestsBefore = api!.log.length;
    expect(readdirSync(childLogDir(log)).sort()).toEqual(['toolu_explore.jsonl', 'toolu_review.jsonl']);
    const tree = replayTree(log);
    expect(api!.log.length).toBe(requestsBefore);
    expect(tree.terminal).toEqual(live.terminal);
    expect(tree.emitted).toEqual(live.emitted);
    for (const run of live.agentRuns) {
      const child = tree.children.get(run.toolUseId)!;
      expect(child.terminal).toEqual(run.terminal);
      expect(child.header.params.querySource).toBe(`agent:${run.agent}`);
      expect(child.children.size).toBe(0);
    }
    // A second recording to the same path replaces the children too (none left over from the first).
    await simulate(parseScenario({ params: { prompt: 'hi' }, model: [reply('hello')] }, 'inline'), { record: log });
    expect(replayTree(log).children.size).toBe(0);
  });
});
