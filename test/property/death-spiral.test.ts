/**
 * docs/loop.md §9.1-9.6: the death-spiral guards of the exit ladder and the context pipeline, as properties over
 * adversarial environments (every script cycles forever, see `arbitraries/environment.ts`). Each test names the
 * guard it proves; docs/testing.md maps them to docs/loop.md §9 and shows what each finds when its guard is broken.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Environment } from './arbitraries/environment.ts';
import { environmentArb, environmentWith, withSummary } from './arbitraries/environment.ts';
import { continueSegments, describeRun, effectSegments, iterations } from './checks.ts';
import { runEnvironment, type Recording } from './fake-interpreter.ts';
import { propertyOptions } from './settings.ts';

function run(env: Environment): Recording {
  const recording = runEnvironment(env);
  expect(recording.stuck || recording.boundHit, 'the run must end').toBe(false);
  return recording;
}

const withFeatures = (features: Partial<Environment['config']['features']>) =>
  environmentWith((env) => ({ ...env, config: { ...env.config, features: { ...env.config.features, ...features } } }));

/**
 * The classic spiral of docs/loop.md §5: prompt too long → reactive compact → stop hook blocks → prompt too long again.
 * Half of the environments start that way; the rest of their scripts stay random.
 */
const spiralArb = fc.oneof(
  withFeatures({ reactiveCompact: true }),
  environmentWith((env) => ({
    ...env,
    config: { ...env.config, features: { ...env.config.features, reactiveCompact: true } },
    model: [{ kind: 'reply', reply: { blocks: [], ending: 'prompt_too_long', usage: null } }, ...env.model],
    stopHooks: ['block', ...env.stopHooks],
    reactiveCompact: [true, ...env.reactiveCompact],
  })),
);

/** Half of the environments have a model that truncates every reply (the recovery loop of docs/loop.md §9.2). */
const truncatingArb = fc.oneof(
  environmentArb,
  environmentWith((env) => ({
    ...env,
    model: [{ kind: 'reply', reply: { blocks: [{ kind: 'text', text: 'half a' }], ending: 'max_output_tokens', usage: null } }],
  })),
);

/** Half of the environments have a budget and a model that adds little output per reply (diminishing returns). */
const idlingArb = fc.oneof(
  withFeatures({ tokenBudget: true }),
  fc
    .tuple(
      withFeatures({ tokenBudget: true }),
      fc.integer({ min: 1_000, max: 20_000 }),
      fc.array(fc.constantFrom(0, 100, 499, 500, 501, 1_000), { minLength: 1, maxLength: 3 }),
    )
    .map(([env, tokenBudget, outputs]) =>
      withSummary({
        ...env,
        config: { ...env.config, limits: { ...env.config.limits, maxModelCalls: Math.max(12, env.config.limits.maxModelCalls) } },
        params: { ...env.params, tokenBudget },
        model: outputs.map((output) => ({
          kind: 'reply' as const,
          reply: { blocks: [{ kind: 'text' as const, text: 'ok' }], ending: 'normal' as const, usage: { input_tokens: 10, output_tokens: output } },
        })),
        stopHooks: ['allow'],
      }),
  ),
);

describe('death-spiral guards (docs/loop.md §9.1-9.6)', () => {
  test('§9.1 reactive compact runs at most once per real turn, and its flag survives stop_hook_blocking', () => {
    fc.assert(
      fc.property(spiralArb, (env) => {
        const recording = run(env);
        // A real turn starts at next_turn or token_budget_continuation: the two Continues that clear the flag (§5).
        for (const segment of effectSegments(recording, ['next_turn', 'token_budget_continuation'])) {
          const compacts = segment.filter((e) => e.type === 'reactive_compact').length;
          expect(compacts, `reactive compacts in one turn: ${describeRun(recording)}`).toBeLessThanOrEqual(1);
        }
        for (const c of recording.continues.filter((c) => c.transition.reason === 'stop_hook_blocking')) {
          expect(c.after.hasAttemptedReactiveCompact, `flag across stop_hook_blocking: ${describeRun(recording)}`).toBe(
            c.before.hasAttemptedReactiveCompact,
          );
        }
      }),
      propertyOptions<[Environment]>(300),
    );
  });

  test('§9.2 max_output_tokens_recovery at most 3 times per turn; escalation only with the cap on and no override in the state', () => {
    fc.assert(
      fc.property(truncatingArb, (env) => {
        const recording = run(env);
        // The recovery count is cleared by next_turn, stop_hook_blocking and token_budget_continuation (§5).
        for (const segment of continueSegments(recording, ['next_turn', 'stop_hook_blocking', 'token_budget_continuation'])) {
          const recoveries = segment.filter((r) => r === 'max_output_tokens_recovery').length;
          expect(recoveries, `recoveries in one turn: ${describeRun(recording)}`).toBeLessThanOrEqual(
            env.config.limits.maxOutputTokensRecovery,
          );
        }
        for (const c of recording.continues.filter((c) => c.transition.reason === 'max_output_tokens_escalate')) {
          // docs/loop.md §2: a caller's maxOutputTokensOverride seeds the state's for the first iteration only, so only
          // the state's override at that point rules escalation out.
          const allowed = env.config.features.maxOutputTokensCap && c.before.maxOutputTokensOverride === null;
          expect(allowed, `escalation not allowed: ${describeRun(recording)}`).toBe(true);
          expect(c.after.maxOutputTokensOverride).toBe(env.config.limits.escalatedMaxTokens);
        }
      }),
      propertyOptions<[Environment]>(300),
    );
  });

  test('§9.3 autocompact stops being attempted after 3 consecutive failures', () => {
    fc.assert(
      fc.property(withFeatures({ autoCompact: true }), (env) => {
        const recording = run(env);
        let failures = 0;
        for (const [index, s] of recording.steps.entries()) {
          if (s.event.type === 'autocompact_result') failures = s.event.ok ? 0 : failures + 1;
          // A successful reactive compact writes tracking "none" (§5), which closes the breaker again.
          if (recording.continues.some((c) => c.stepIndex === index && c.transition.reason === 'reactive_compact_retry')) failures = 0;
          for (const effect of s.effects.filter((e) => e.type === 'autocompact')) {
            expect(failures, `autocompact ${effect.id} after ${failures} failures: ${describeRun(recording)}`).toBeLessThan(
              env.config.limits.autocompactMaxFailures,
            );
          }
        }
      }),
      propertyOptions<[Environment]>(300),
    );
  });

  test('§9.4 stop hooks never run when the last assistant message is an API error, nor on prompt-too-long', () => {
    fc.assert(
      fc.property(environmentArb, (env) => {
        const recording = run(env);
        let attempt: Recording['attempts'][number] = [];
        for (const s of recording.steps) {
          if (s.event.type === 'model_message') attempt = [...attempt, s.event.message];
          if (s.event.type === 'model_stream_fallback') attempt = [];
          for (const effect of s.effects) {
            if (effect.type === 'call_model') attempt = [];
            if (effect.type !== 'run_stop_hooks') continue;
            const last = attempt[attempt.length - 1];
            expect(last?.apiError, `stop hooks after an API error: ${describeRun(recording)}`).toBeUndefined();
            const tooLong = attempt.some((m) => m.apiError?.kind === 'prompt_too_long' || m.apiError?.kind === 'media_size');
            expect(tooLong, `stop hooks on prompt-too-long: ${describeRun(recording)}`).toBe(false);
          }
        }
      }),
      propertyOptions<[Environment]>(300),
    );
  });

  test('§9.5 collapse drain never runs twice in a row', () => {
    fc.assert(
      fc.property(withFeatures({ contextCollapse: true }), (env) => {
        const recording = run(env);
        for (const iteration of iterations(recording)) {
          if (iteration.startedBy?.reason !== 'collapse_drain_retry') continue;
          const drains = iteration.effects.filter((e) => e.type === 'collapse_drain').length;
          expect(drains, `drain right after collapse_drain_retry: ${describeRun(recording)}`).toBe(0);
        }
      }),
      propertyOptions<[Environment]>(300),
    );
  });

  test('§9.6 token-budget continuation stops on diminishing returns and never runs for subagents', () => {
    fc.assert(
      fc.property(idlingArb, (env) => {
        const recording = run(env);
        const { tokenBudgetCompletionRatio: ratio, tokenBudgetDiminishingDelta: small } = env.config;
        const budget = env.params.tokenBudget;
        // Oracle (docs/loop.md §8), with its own tracker: at the token-budget rung, continue exactly when this says so.
        const oracle = { continuationCount: 0, lastDeltaTokens: 0, lastGlobalTurnTokens: 0 };
        const applies = budget !== undefined && budget > 0 && !env.params.querySource?.startsWith('agent:');
        for (const [index, s] of recording.steps.entries()) {
          const reachedRung = s.event.type === 'stop_hooks_result' && !s.event.preventContinuation && s.event.blockingErrors.length === 0;
          if (!reachedRung) continue;
          const continued = recording.continues.some((c) => c.stepIndex === index && c.transition.reason === 'token_budget_continuation');
          if (s.before.context.iter.abortReason !== null) {
            // An aborted turn never continues (Extension abortEndsTurn), and the oracle's tracker does not move.
            expect(continued, `token-budget continuation after an abort: ${describeRun(recording)}`).toBe(false);
            continue;
          }
          const turnTokens = s.before.context.outputTokens;
          const delta = turnTokens - oracle.lastGlobalTurnTokens;
          const diminishing = oracle.continuationCount >= 3 && delta < small && oracle.lastDeltaTokens < small;
          const expected = applies && !diminishing && turnTokens < ratio * (budget as number);
          expect(continued, `token-budget decision differs from docs/loop.md §8 at ${turnTokens} tokens: ${describeRun(recording)}`).toBe(expected);
          if (expected) Object.assign(oracle, { continuationCount: oracle.continuationCount + 1, lastDeltaTokens: delta, lastGlobalTurnTokens: turnTokens });
        }
      }),
      propertyOptions<[Environment]>(300),
    );
  });
});
