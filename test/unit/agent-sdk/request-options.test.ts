/** The SDK's request options as each API request carries them: model aliases, thinking, task budget, fallback. */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropicApi, type FakeApi, type FakeScriptInput } from '../../../src/fake-api/index.ts';
import { runHeadless, SDK_ARGS } from './headless-harness.ts';
import { thinkingParam } from '../../../src/agent-sdk/request-options.ts';

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const ANSWER = { content: [{ type: 'text' as const, text: 'ok' }] };

/** Runs one turn against a fake API the test can read (the requests it received). */
async function requestsOf(args: string[], script: FakeScriptInput = { model: [ANSWER] }) {
  api = await startFakeAnthropicApi(script);
  const run = await runHeadless([...SDK_ARGS, ...args], { env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: api.baseURL } });
  return { run, bodies: api.log.map((entry) => entry.body as Record<string, any>) };
}

describe('request options', () => {
  it('model aliases resolve as claude 2.1.334 resolves them, with their max_tokens', async () => {
    for (const [alias, model] of [['opus', 'claude-opus-5-5'], ['sonnet', 'claude-sonnet-5-5'], ['haiku', 'claude-haiku-5-5']]) {
      const { run, bodies } = await requestsOf(['--model', alias]);
      expect(bodies[0]).toMatchObject({ model, max_tokens: 128_000 });
      expect(run.lines.find((l) => l.subtype === 'init')?.model).toBe(model);
      expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', is_error: false });
      await api?.close();
    }
  });

  it('--task-budget is output_config.task_budget on the request', async () => {
    const { bodies } = await requestsOf(['--task-budget', '50000']);
    expect(bodies[0].output_config).toEqual({ task_budget: { type: 'tokens', total: 50_000 } });
  });

  it('--thinking and --max-thinking-tokens set the request thinking as claude does', async () => {
    expect((await requestsOf(['--thinking=disabled'])).bodies[0].thinking).toEqual({ type: 'disabled' });
    await api?.close();
    expect((await requestsOf(['--thinking=adaptive'])).bodies[0].thinking).toEqual({ type: 'adaptive' });
    await api?.close();
    expect((await requestsOf(['--max-thinking-tokens', '5000', '--model', 'claude-sonnet-4-6'])).bodies[0].thinking).toEqual({ type: 'adaptive' });
    await api?.close();
    expect((await requestsOf(['--max-thinking-tokens', '5000', '--model', 'claude-sonnet-4-5'])).bodies[0].thinking).toEqual({ type: 'enabled', budget_tokens: 5000 });
    await api?.close();
    expect((await requestsOf([])).bodies[0]).not.toHaveProperty('thinking');
  });

  it('--effort is output_config.effort as claude 2.1.334 sends it per model, beside a task budget', async () => {
    const effortOf = async (args: string[]) => {
      const { bodies } = await requestsOf(args);
      await api?.close();
      return bodies[0].output_config;
    };
    expect(await effortOf(['--effort', 'low', '--model', 'claude-sonnet-4-6'])).toEqual({ effort: 'low' });
    expect(await effortOf(['--effort', 'max', '--model', 'claude-sonnet-4-6'])).toEqual({ effort: 'max' });
    // xhigh only on the 5.5 family; the 4.x models that take effort get high.
    expect(await effortOf(['--effort', 'xhigh', '--model', 'claude-opus-4-6'])).toEqual({ effort: 'high' });
    expect(await effortOf(['--effort', 'xhigh', '--model', 'opus'])).toEqual({ effort: 'xhigh' });
    // Models without effort get none.
    expect(await effortOf(['--effort', 'low', '--model', 'claude-haiku-4-5'])).toBeUndefined();
    expect(await effortOf(['--effort', 'low', '--task-budget', '50000'])).toEqual({ effort: 'low', task_budget: { type: 'tokens', total: 50_000 } });
    expect(await effortOf([])).toBeUndefined();
  });

  it('--thinking follows the request to a fallback model without adaptive thinking: a budget, as claude 2.1.334 sends it', async () => {
    const overloads = { model: [{ status: 529 as const }, { status: 529 as const }, { status: 529 as const }, ANSWER] };
    const adaptive = await requestsOf(['--thinking', 'adaptive', '--model', 'claude-sonnet-4-6', '--fallback-model', 'claude-haiku-4-5'], overloads);
    expect(adaptive.bodies.map((b) => [b.model, b.thinking])).toEqual([
      ...Array(3).fill(['claude-sonnet-4-6', { type: 'adaptive' }]),
      ['claude-haiku-4-5', { type: 'enabled', budget_tokens: adaptive.bodies[3].max_tokens - 1 }],
    ]);
    await api?.close();
    const budget = await requestsOf(['--max-thinking-tokens', '5000', '--model', 'claude-sonnet-4-6', '--fallback-model', 'claude-haiku-4-5'], overloads);
    expect(budget.bodies.map((b) => b.thinking)).toEqual([...Array(3).fill({ type: 'adaptive' }), { type: 'enabled', budget_tokens: 5000 }]);
    expect(budget.run.lines.at(-1)).toMatchObject({ subtype: 'success' });
  });

  it('--thinking-display is the request thinking\'s display as claude sends it; a bad value is exit 2', async () => {
    expect((await requestsOf(['--thinking', 'adaptive', '--thinking-display', 'summarized'])).bodies[0].thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    await api?.close();
    expect((await requestsOf(['--thinking', 'adaptive', '--thinking-display', 'omitted'])).bodies[0].thinking).toEqual({ type: 'adaptive', display: 'updates' });
    await api?.close();
    expect((await requestsOf(['--thinking', 'disabled', '--thinking-display', 'summarized'])).bodies[0].thinking).toEqual({ type: 'disabled' });
    const bad = await runHeadless([...SDK_ARGS, '--thinking', 'adaptive', '--thinking-display', 'loud', '--fake-api', 'none.json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--thinking-display expects one of summarized, omitted, got 'loud'");
  });

  it('--effort follows the request to a fallback model: none on one without effort (claude 2.1.334 sends none there)', async () => {
    const { run, bodies } = await requestsOf(['--effort', 'low', '--model', 'claude-sonnet-4-6', '--fallback-model', 'claude-haiku-4-5'], { model: [{ status: 529 }, { status: 529 }, { status: 529 }, ANSWER] });
    expect(bodies.map((b) => [b.model, b.output_config])).toEqual([
      ['claude-sonnet-4-6', { effort: 'low' }],
      ['claude-sonnet-4-6', { effort: 'low' }],
      ['claude-sonnet-4-6', { effort: 'low' }],
      ['claude-haiku-4-5', undefined],
    ]);
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success' });
  });

  it('a bad --effort value is exit 2 with what was expected', async () => {
    const run = await runHeadless([...SDK_ARGS, '--effort', 'huge', '--fake-api', 'none.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--effort expects one of low, medium, high, xhigh, max, got 'huge'");
    expect(run.stderr).not.toContain('ignoring');
  });

  it('a bad --thinking value is exit 2 with what was expected', async () => {
    const run = await runHeadless([...SDK_ARGS, '--thinking', 'lots', '--fake-api', 'none.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--thinking expects one of adaptive, enabled, disabled, got 'lots'");
    expect(() => thinkingParam({ maxThinkingTokens: 10 }, 'claude-3-7-sonnet')).not.toThrow();
  });

  it('--fallback-model: after repeated overloads the next request uses the fallback model', async () => {
    const { run, bodies } = await requestsOf(['--model', 'claude-sonnet-4-6', '--fallback-model', 'haiku'], { model: [{ status: 529 }, { status: 529 }, { status: 529 }, ANSWER] });
    expect(bodies.map((b) => b.model)).toEqual(['claude-sonnet-4-6', 'claude-sonnet-4-6', 'claude-sonnet-4-6', 'claude-haiku-5-5']);
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', is_error: false, result: 'ok' });
    expect(run.lines.find((l) => l.subtype === 'model_fallback')).toMatchObject({ type: 'system', trigger: 'overloaded', original_model: 'claude-sonnet-4-6', fallback_model: 'claude-haiku-5-5' });
  });
});
