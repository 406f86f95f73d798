/**
 * Subagents (`defineAgentTool`): a tool call runs a child loop with `querySource: 'agent:<name>'`, under the
 * parent's abort signal, its answer the tool result; children are recorded beside the parent and replayed with it.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pairingViolations, toolUseIds } from '../../property/checks.ts';
import { describe, expect, it } from 'vitest';
import { defineAgentTool } from '../../../src/agents/define-agent-tool.ts';
import { runQuery } from '../../../src/api/query.ts';
import { counterIds, virtualClock } from '../../../src/runtime/system-clock.ts';
import type { Message } from '../../../src/messages/types.ts';
import { childLogDir, replayTree, TreeReplayDivergenceError } from '../../../src/replay/child-logs.ts';
import { routedModelCaller, text, toolUses, type Replies } from './agent-tree.ts';

const explore = defineAgentTool({ name: 'Explore', description: 'Finds things in the code', systemPrompt: 'You explore.' });
const review = defineAgentTool({ name: 'Review', description: 'Reviews a change', maxTurns: 1 });

function deps(replies: Replies, delayMs = 0) {
  const callModel = routedModelCaller(replies, { delayMs });
  return { callModel, deps: { callModel, clock: virtualClock(0), newId: counterIds('t') } };
}

function toolResultText(messages: Message[], id: string): { text: string; isError: boolean } {
  for (const m of messages) {
    if (m.type !== 'user' || !Array.isArray(m.message.content)) continue;
    for (const b of m.message.content) {
      if (b.type === 'tool_result' && b.tool_use_id === id) {
        const content = b.content;
        return { text: typeof content === 'string' ? content : JSON.stringify(content), isError: b.is_error === true };
      }
    }
  }
  throw new Error(`no tool_result for ${id}`);
}

describe('subagents', () => {
  it('runs two agent tools of one reply at once, each as agent:<name>, their answers the tool results', async () => {
    const { callModel, deps: d } = deps(
      {
        sdk: [toolUses({ id: 'toolu_a', name: 'Explore', prompt: 'find auth' }, { id: 'toolu_b', name: 'Review', prompt: 'review it' }), text('all done')],
        'agent:Explore': [text('auth is in src/auth.ts')],
        'agent:Review': [text('looks fine')],
      },
      30,
    );
    const { items, terminal } = await runQuery({ prompt: 'go', tools: [explore, review], deps: d });
    expect(terminal.reason).toBe('completed');
    const messages = items.filter((i): i is Message => i.type === 'assistant' || i.type === 'user');
    expect(toolResultText(messages, 'toolu_a')).toEqual({ text: 'auth is in src/auth.ts', isError: false });
    expect(toolResultText(messages, 'toolu_b')).toEqual({ text: 'looks fine', isError: false });
    expect(callModel.calls.get('agent:Explore')).toBe(1);
    expect(callModel.calls.get('agent:Review')).toBe(1);
    expect(callModel.maxActive).toBe(2); // the two children's model calls overlapped
  });

  it('explains a child that ends in a failure terminal instead of answering', async () => {
    const { deps: d } = deps({
      sdk: [toolUses({ id: 'toolu_r', name: 'Review', prompt: 'review' }), text('ok')],
      // maxTurns 1: the child's first turn asks for a tool, so it stops at max_turns without an answer.
      'agent:Review': [{ content: [{ type: 'tool_use', id: 'toolu_inner', name: 'Missing', input: {} }] }],
    });
    const { items } = await runQuery({ prompt: 'go', tools: [review], deps: d });
    const result = toolResultText(items.filter((i): i is Message => i.type === 'user'), 'toolu_r');
    expect(result.isError).toBe(true);
    expect(result.text).toContain('The Review agent did not complete its task: it ended with max_turns');
  });

  it('aborting the parent aborts the child through its abort path: every tool_use in both runs is answered', async () => {
    const controller = new AbortController();
    const slow = defineAgentTool({ name: 'Slow', description: 'takes long', tools: [], maxTurns: 3 });
    const { deps: d } = deps(
      { sdk: [toolUses({ id: 'toolu_s', name: 'Slow', prompt: 'wait' })], 'agent:Slow': [text('never seen')] },
      400,
    );
    const childItems: Message[] = [];
    setTimeout(() => controller.abort('interrupt'), 100);
    const { items, terminal } = await runQuery({
      prompt: 'go',
      tools: [slow],
      deps: d,
      signal: controller.signal,
      childObservers: () => [() => ({ onStep: (s) => s.effects.forEach((e) => e.type === 'emit' && childItems.push(e.message)) })],
    });
    expect(terminal.reason).toMatch(/^aborted_/);
    const parent = items.filter((i): i is Message => i.type === 'assistant' || i.type === 'user');
    expect(toolUseIds(parent)).toEqual(['toolu_s']);
    expect(pairingViolations(parent)).toEqual([]);
    expect(pairingViolations(childItems)).toEqual([]);
  });

  it('records each child beside the parent log; replayTree re-drives the tree with zero model calls and names a divergence by its path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turnloop-agents-'));
    const log = join(dir, 'run.jsonl');
    const { callModel, deps: d } = deps({
      sdk: [toolUses({ id: 'toolu_a', name: 'Explore', prompt: 'find' }, { id: 'toolu_b', name: 'Review', prompt: 'check' }), text('done')],
      'agent:Explore': [text('found it')],
      'agent:Review': [text('fine')],
    });
    const live = await runQuery({ prompt: 'go', tools: [explore, review], deps: d, record: log });
    const callsBefore = callModel.total();
    expect(readdirSync(childLogDir(log)).sort()).toEqual(['toolu_a.jsonl', 'toolu_b.jsonl']);

    const tree = replayTree(log);
    expect(callModel.total()).toBe(callsBefore);
    expect(tree.terminal).toEqual(live.terminal);
    expect(tree.children.get('toolu_a')?.terminal?.reason).toBe('completed');
    expect(tree.children.get('toolu_a')?.header.params.querySource).toBe('agent:Explore');
    expect(tree.children.get('toolu_b')?.emitted.some((m) => m.type === 'assistant' && JSON.stringify(m.message.content).includes('fine'))).toBe(true);

    // Edit the child's answer: the tree replay fails at that child event, naming the parent event that took it.
    const child = join(childLogDir(log), 'toolu_b.jsonl');
    writeFileSync(child, readFileSync(child, 'utf8').replace('"fine"', '"FINE"'));
    let thrown: unknown;
    try {
      replayTree(log);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TreeReplayDivergenceError);
    const divergence = thrown as TreeReplayDivergenceError;
    expect(divergence.path.map((p) => p.toolUseId)).toEqual(['toolu_b']);
    expect(divergence.path[0]!.parentEvent).toBeGreaterThan(0);
    expect(divergence.message).toMatch(/parent event \d+ → child run toolu_b → child event \d+/);
  });
});
