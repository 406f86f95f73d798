/**
 * The viewer's conversation (`src/viz/viewer/conversation.ts`): what a person reads, each entry tied to the step
 * that produced it; the header's figures (`session-summary.ts`).
 */
import { describe, expect, it } from 'vitest';
import { viewerData, type EmbeddedRun } from '../../../src/viz/html.ts';
import { buildChart } from '../../../src/viz/graph.ts';
import { conversationOf, EntryIndex, entryKind } from '../../../src/viz/viewer/conversation.ts';
import { RunTree } from '../../../src/viz/viewer/run-tree.ts';
import { summarise, summaryFigures } from '../../../src/viz/viewer/session-summary.ts';
import { claudeSessionForView } from '../../../src/viz/claude-session.ts';
import { assistantText, assistantToolUse, compacted, compactSummary, drive, params, reply, testConfig, TEST_MODEL } from '../../helpers/index.ts';
import { toolUsingSession } from './fixtures.ts';
import { resolve } from 'node:path';

const chart = buildChart();
const treeOf = (run: EmbeddedRun) => {
  const tree = new RunTree(chart, run);
  tree.root.model.addSteps(run.events);
  return tree;
};

describe('the conversation', () => {
  it('lists the prompt, the answers, the tool call and its result and the ending, each at the step that produced it', () => {
    const session = toolUsingSession();
    const tree = treeOf(viewerData({ ...session, indexes: session.events.map((_, i) => i + 1) }).session!);
    const entries = conversationOf(tree);
    expect(entries.map((e) => [e.kind, e.text.split('\n')[0]])).toEqual([
      ['prompt', 'List the files, please.'],
      ['answer', 'Let me look.'],
      ['tool', 'Glob({"pattern":"*.ts"}) [tu1]'],
      ['result', 'a.ts'],
      ['answer', 'There are two files: a.ts and b.ts.'],
      ['end', 'completed'],
    ]);
    const model = tree.root.model;
    for (const e of entries.slice(1, 5)) expect(model.entries[e.step]!.type).toBe(e.kind === 'result' ? 'tool_result' : 'model_message');
    // Stepping marks the last entry at or before the step: between the result and the answer, the result.
    const index = new EntryIndex(entries);
    const result = entries[3]!;
    expect(index.at(tree.root, result.step + 1)).toBe(3);
    expect(index.at(tree.root, 0)).toBe(0);
    expect(index.at(tree.root, model.length - 1)).toBe(5);
  });

  it('shows a compaction where the engine compacted, and a failed one as an error', () => {
    const smallWindow = { [TEST_MODEL]: { contextWindow: 30_000, maxOutputTokens: 8_000, maxOutputTokensUpperLimit: 8_000 } };
    const config = testConfig({ models: smallWindow, features: { reactiveCompact: false } });
    const p = params('x'.repeat(80_000));
    const run = drive(p, config, { model: [reply(assistantText('ok'))], autocompact: [compacted(compactSummary('What happened so far.'), 20_000)] });
    const tree = treeOf({ config, params: p, events: run.steps.map((s) => s.event) });
    const compaction = conversationOf(tree).find((e) => e.kind === 'compact')!;
    expect(compaction.text).toMatch(/^automatic compaction of 20,000 tokens: the conversation goes on from its summary\n/);
    expect(compaction.text).toContain('What happened so far.');
    expect(tree.root.model.entries[compaction.step]!.type).toBe('autocompact_result');
  });

  it('classifies messages as a reader would', () => {
    expect(entryKind({ uuid: 'u', type: 'user', tag: 'tool_result', text: '(error) no such file [t1]' }, false)).toBe('error');
    expect(entryKind({ uuid: 'u', type: 'user', tag: 'meta', text: 'hook context' }, true)).toBe('note');
    expect(entryKind({ uuid: 'u', type: 'assistant', tag: 'api_error: prompt_too_long', text: 'Prompt is too long' }, false)).toBe('error');
    expect(entryKind({ uuid: 'u', type: 'system', tag: 'compact_boundary', text: 'Conversation compacted' }, true)).toBe('compact');
  });

  it('a transcript: every main-thread run in order, its later prompts as typed, subagents after their Task call; the header adds up every run', () => {
    const view = claudeSessionForView(resolve(import.meta.dirname, '../../fixtures/claude-code-transcripts/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl'));
    const tree = new RunTree(chart, JSON.parse(JSON.stringify(viewerData(view.session).session)) as EmbeddedRun);
    tree.root.model.addSteps(view.session!.events);
    const entries = conversationOf(tree);
    const runs = entries.filter((e) => e.kind === 'run').map((e) => e.run.key);
    expect(runs).toEqual(tree.root.children.filter((c) => c.kind === 'run').map((c) => c.key));
    const subagent = entries.find((e) => e.kind === 'subagent' && e.run.agent !== 'compaction')!;
    const call = entries.findIndex((e) => e.kind === 'tool' && e.text.includes(`[${subagent.run.path.at(-1)}]`));
    expect(call).toBeGreaterThanOrEqual(0);
    expect(entries.indexOf(subagent)).toBeGreaterThan(call);
    expect(entries.filter((e) => e.kind === 'end')).toHaveLength(runs.length + 1);

    const summary = summarise(tree, entries.find((e) => e.kind === 'prompt')!.text);
    const engineCalls = tree.runs.reduce((n, r) => n + r.model.stateAt(r.model.length - 1).context.modelCalls, 0);
    const recordedCalls = tree.runs.reduce((n, r) => n + r.check!.modelCalls.recorded, 0);
    expect(summary.modelCalls).toBe(engineCalls);
    expect(summary.modelCalls).toBe(recordedCalls);
    expect(summary.firstPrompt).toMatch(/^Work on bead spotter-4te/);
    expect(summary.costUsd).toBeGreaterThan(0);
    expect(summaryFigures(summary).map(([label]) => label)).toEqual(['ending', 'model calls', 'tokens', 'cost', 'runs']);
  });
});

describe('the session header without a price', () => {
  it('says the cost is unknown and names the model', () => {
    const session = toolUsingSession();
    const config = { ...session.config, model: 'some-unpriced-model' };
    const p = params('hi');
    const run = drive(p, config, { model: [reply([assistantText('hello'), assistantToolUse('t', 'Glob', {})], { usage: { input_tokens: 10, output_tokens: 5 } }), reply(assistantText('done'))], tools: { t: 'x' } });
    const tree = treeOf({ config, params: p, events: run.steps.map((s) => s.event) });
    const figures = Object.fromEntries(summaryFigures(summarise(tree, 'hi')));
    expect(figures['cost']).toBe('unknown (no price for some-unpriced-model)');
  });
});
