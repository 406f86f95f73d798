/**
 * The fidelity cases that scenarios script (`test/unit/scenario-fidelity-format.test.ts` pins what each must do):
 * the per-tool result-size thresholds Claude Code's tools declare, the per-message budget of a reply's results, and
 * an abort after the k-th streamed block. One list, so that every test that runs "every fidelity case" (the
 * drivers' equality, `test/unit/cli/simulate-drivers.test.ts`) runs the same ones.
 */
const toolUse = (id: string, name: string) => ({ type: 'tool_use', id, name, input: {} });

/** One reply calling `name` once with a result of `chars` characters, then a final answer. */
export function resultSizeScenario(name: string, chars: number, maxResultSizeChars?: number | 'unbounded'): Record<string, unknown> {
  return {
    name: `${name} ${chars}`,
    params: { prompt: 'go' },
    model: [{ content: [toolUse('toolu_r', name)] }, { content: [{ type: 'text', text: 'done' }] }],
    tools: [{ name, results: [{ content: 'x'.repeat(chars) }], ...(maxResultSizeChars === undefined ? {} : { maxResultSizeChars }) }],
  };
}

/** One reply calling `count` tools whose results of `chars` characters each add up beyond one message's budget. */
export function perMessageScenario(count: number, chars: number, querySource?: string): Record<string, unknown> {
  const ids = Array.from({ length: count }, (_, i) => `toolu_${i + 1}`);
  return {
    name: `${count} results of ${chars} in one message${querySource ? ` (${querySource})` : ''}`,
    params: { prompt: 'go', ...(querySource ? { querySource } : {}) },
    model: [{ content: ids.map((id) => toolUse(id, 'Fetch')) }, { content: [{ type: 'text', text: 'done' }] }],
    tools: [{ name: 'Fetch', concurrencySafe: true, results: ids.map(() => ({ content: 'y'.repeat(chars) })) }],
  };
}

export const CUT_AFTER_BLOCK_2: Record<string, unknown> = {
  name: 'cut after block 2',
  params: { prompt: 'go' },
  model: [{ content: [{ type: 'text', text: 'Reading two files.' }, toolUse('toolu_a', 'Slow'), toolUse('toolu_b', 'Slow')] }],
  tools: [{ name: 'Slow', concurrencySafe: true, interruptBehavior: 'cancel', results: [{ content: 'a', delayMs: 5_000 }, { content: 'b' }] }],
  abort: { during: 'sampling', atModelCall: 1, afterBlock: 2 },
  expect: { terminal: 'aborted_streaming' },
};

export const CUT_SECOND_REPLY: Record<string, unknown> = {
  name: 'cut the second reply',
  params: { prompt: 'go' },
  model: [{ content: [toolUse('toolu_1', 'Fast')] }, { content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] }],
  tools: [{ name: 'Fast', results: [{ content: 'ok' }] }],
  abort: { during: 'sampling', atModelCall: 2, afterBlock: 1 },
};

/** Every fidelity case, by a file-safe name. */
export const FIDELITY_SCENARIOS: ReadonlyArray<{ name: string; scenario: Record<string, unknown> }> = [
  { name: 'bash-at-limit', scenario: resultSizeScenario('Bash', 30_000) },
  { name: 'bash-over-limit', scenario: resultSizeScenario('Bash', 30_001) },
  { name: 'grep-at-limit', scenario: resultSizeScenario('Grep', 20_000) },
  { name: 'grep-over-limit', scenario: resultSizeScenario('Grep', 20_001) },
  { name: 'read-unbounded', scenario: resultSizeScenario('Read', 60_000) },
  { name: 'other-at-limit', scenario: resultSizeScenario('Other', 50_000) },
  { name: 'other-over-limit', scenario: resultSizeScenario('Other', 50_001) },
  { name: 'declared-size', scenario: resultSizeScenario('Other', 10_001, 10_000) },
  { name: 'declared-unbounded', scenario: resultSizeScenario('Other', 70_000, 'unbounded') },
  { name: 'per-message-sdk', scenario: perMessageScenario(5, 45_000) },
  { name: 'per-message-main-thread', scenario: perMessageScenario(5, 45_000, 'repl_main_thread') },
  { name: 'cut-after-block-2', scenario: CUT_AFTER_BLOCK_2 },
  { name: 'cut-second-reply', scenario: CUT_SECOND_REPLY },
];
