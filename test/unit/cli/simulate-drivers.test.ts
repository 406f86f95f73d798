/**
 * `turnloop simulate --driver durable` runs the scenario through `durableQuery()` on an in-memory journal, and its
 * `--json` output equals the plain run's (`query()`'s engine) for every example scenario and every fidelity case.
 *
 * One documented difference is rewritten before comparing, Extension `durableToolsInCallOrder`: under the durable
 * driver a reply's tools start only once the reply is journaled, one at a time in call order. So (1) the results of
 * a reply's calls come after the reply's last block, in call order, where `query()` emits each as it finishes while
 * the reply still streams; and (2) under an abort, a call `query()` had started (and that was interrupted) has not
 * started under durable: its result says so and the tool never saw it. The rewrite of (1) is applied to both
 * outputs (and must leave the durable one as it is); (2) only to a scenario that aborts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { simulateScenario } from '../../../src/scenario/simulate.ts';
import { parseScenario } from '../../../src/scenario/load-scenario.ts';
import { durableRunLoop } from '../../../src/durable/durable-query.ts';
import { MemoryJournal } from '../../../src/durable/journal.ts';
import { resolveRunConfig } from '../../../src/drivers/resolve-run.ts';
import { createDefaultDeps } from '../../../src/runtime/default-deps.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import { FIDELITY_SCENARIOS } from '../../helpers/fidelity-scenarios.ts';
import { REPO_ROOT, runCli } from './capture-io.ts';

const EXAMPLES = join(REPO_ROOT, 'examples/scenarios');
const examples = readdirSync(EXAMPLES).filter((name) => name.endsWith('.json')).sort();
const fidelityDir = mkdtempSync(join(tmpdir(), 'turnloop-fidelity-'));
const fidelityFiles = FIDELITY_SCENARIOS.map(({ name, scenario }) => {
  const file = join(fidelityDir, `${name}.json`);
  writeFileSync(file, JSON.stringify(scenario));
  return file;
});
afterAll(() => rmSync(fidelityDir, { recursive: true, force: true }));

interface SimulationJson {
  emitted: unknown[];
  toolCalls: Array<{ id: string }>;
  [field: string]: unknown;
}

/**
 * The plain run's output as the durable driver words it (Extension `durableToolsInCallOrder`): an interrupted tool
 * result reads "not run, cancelled before it started", and a call the abort caught never reached the tool.
 */
function asDurableWordsAbortedTools(plain: SimulationJson, durable: SimulationJson): SimulationJson {
  const text = JSON.stringify(plain.emitted).replace(/"content":"((?:[^"\\]|\\.)*?)","is_error":true/g, (whole, content: string) => {
    const started = JSON.stringify(durable.emitted).includes(`Not run: this tool call was cancelled before it started. (${content})`);
    return started ? `"content":"Not run: this tool call was cancelled before it started. (${content})","is_error":true` : whole;
  });
  const called = new Set(durable.toolCalls.map((call) => call.id));
  return { ...plain, emitted: JSON.parse(text) as unknown[], toolCalls: plain.toolCalls.filter((call) => called.has(call.id)) };
}

/** A message's content blocks (none for a string content). */
function blocksOf(message: Record<string, unknown>): Array<Record<string, unknown>> {
  const content = (message['message'] as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) ? (content as Array<Record<string, unknown>>) : [];
}

/**
 * Rewrite (1): every tool-result message moved right after the last assistant message of the reply that asked for
 * it, the results of one reply in call order; every other message keeps its order.
 */
function resultsAfterTheirReply(emitted: unknown[]): unknown[] {
  const messages = emitted as Array<Record<string, unknown>>;
  const replyOf = new Map<string, { reply: string; order: number }>();
  const lastOfReply = new Map<string, number>();
  messages.forEach((message, index) => {
    if (message['type'] !== 'assistant') return;
    const reply = String((message['message'] as { id?: string }).id);
    lastOfReply.set(reply, index);
    for (const block of blocksOf(message)) if (block['type'] === 'tool_use') replyOf.set(String(block['id']), { reply, order: replyOf.size });
  });
  const resultOf = (message: Record<string, unknown>) => {
    const answered = blocksOf(message).find((block) => block['type'] === 'tool_result');
    return message['type'] === 'user' && answered ? replyOf.get(String(answered['tool_use_id'])) : undefined;
  };
  const keyed = messages.map((message, index) => {
    const result = resultOf(message);
    return { message, at: result ? (lastOfReply.get(result.reply) ?? index) + 0.5 : index, order: result?.order ?? 0 };
  });
  return keyed.sort((a, b) => a.at - b.at || a.order - b.order).map((entry) => entry.message);
}

async function bothDrivers(file: string): Promise<{ plain: string; durable: string }> {
  const plain = await runCli(['simulate', file, '--json']);
  const durable = await runCli(['simulate', file, '--json', '--driver', 'durable']);
  expect(plain.stderr).toBe('');
  expect(durable.stderr).toBe('');
  expect(durable.code).toBe(plain.code);
  return { plain: plain.stdout, durable: durable.stdout };
}

describe('turnloop simulate --driver durable', () => {
  it('finds the example scenarios and the fidelity cases', () => {
    expect(examples.length).toBeGreaterThan(20);
    expect(fidelityFiles.length).toBeGreaterThan(10);
  });

  /** The two outputs equal, once the documented difference is rewritten; and the same bytes where it plays no part. */
  async function expectSameRun(file: string, aborts: boolean, rewrites: boolean): Promise<void> {
    const { plain, durable } = await bothDrivers(file);
    if (!rewrites) {
      expect(durable).toBe(plain);
      return;
    }
    const plainJson = JSON.parse(plain) as SimulationJson;
    const durableJson = JSON.parse(durable) as SimulationJson;
    // The rewrite has something to do here, or it would hide nothing; and the durable order is already the rewritten one.
    expect(durable).not.toBe(plain);
    expect(resultsAfterTheirReply(durableJson.emitted)).toEqual(durableJson.emitted);
    const ordered = { ...plainJson, emitted: resultsAfterTheirReply(plainJson.emitted) };
    expect(durableJson).toEqual(aborts ? asDurableWordsAbortedTools(ordered, durableJson) : ordered);
  }

  /** The cases where the durable driver's tools run differently (several calls in one reply; calls cut by an abort). */
  const REWRITTEN = new Set(['aborted-tools.json', 'per-message-sdk', 'per-message-main-thread', 'cut-after-block-2']);

  for (const name of examples) {
    it(`${name}: the same --json as the plain run`, async () => {
      const file = join(EXAMPLES, name);
      const aborts = (JSON.parse(readFileSync(file, 'utf8')) as { abort?: unknown }).abort !== undefined;
      await expectSameRun(file, aborts, REWRITTEN.has(name));
    });
  }

  for (const [i, file] of fidelityFiles.entries()) {
    const { name, scenario } = FIDELITY_SCENARIOS[i]!;
    it(`fidelity case ${name}: the same --json as the plain run`, async () => {
      await expectSameRun(file, scenario['abort'] !== undefined, REWRITTEN.has(name));
    });
  }

  it('says which drivers there are', async () => {
    const { code, stderr } = await runCli(['simulate', join(EXAMPLES, 'completed.json'), '--driver', 'journal']);
    expect(code).toBe(2);
    expect(stderr).toContain("--driver expects one of query, durable, got 'journal'");
  });

  it('would fail if the durable driver resolved its run apart: deps built without the tools and the query source', async () => {
    // The drift this test guards against, rebuilt: the durable driver as it resolved its deps before resolveRun()
    // (no tools, so no declared result sizes; no query source, so the per-message budget of an SDK run).
    const apart = (options: Parameters<typeof durableRunLoop>[0]) => {
      const config = resolveRunConfig(options.config, options.maxTurns);
      const { runContextLayer } = createDefaultDeps(config, options.deps, runLoopToEnd);
      return durableRunLoop({ ...options, deps: { ...options.deps, runContextLayer } });
    };
    for (const name of ['bash-over-limit', 'per-message-sdk']) {
      const scenario = parseScenario(FIDELITY_SCENARIOS.find((c) => c.name === name)!.scenario, name);
      const plain = await simulateScenario(scenario);
      const drifted = await simulateScenario(scenario, { driver: (options) => apart({ ...options, journal: new MemoryJournal() }) });
      expect(JSON.stringify(drifted.requests)).not.toBe(JSON.stringify(plain.requests));
    }
  });
});
